import path from 'node:path';

/** Ports and throwaway data of the e2e run; nothing here touches ./data. */
export const e2eDataDir = path.resolve('e2e/.data');
export const consoleDataDir = path.join(e2eDataDir, 'console');
export const consolePort = Number(process.env.E2E_CONSOLE_PORT ?? 3311);
export const consoleUrl = `http://127.0.0.1:${consolePort}`;
/** Everything the console under test printed (stdout and stderr of the launcher and Next). */
export const consoleLogFile = path.join(e2eDataDir, 'console.log');

/**
 * The run's step-up window: the run outlasts the default 15 minutes, and its sessions, signed in
 * once at the start, stay fresh; e2e/two-factor.spec.ts ages a session of its own past it.
 */
export const e2eStepUpMinutes = 720;
