/** Whether the builds are the code in the tree: decided in one place, for `npm start` and the bench. */
export { staleBuild, staleServerBuild } from '../scripts/build-state.mjs';
