/**
 * Ctrl-K (or Cmd-K) and what is typed after it, heard from the moment the page's HTML is read, not
 * only once React has hydrated it: on a slow machine the page shows seconds before its scripts run,
 * and a shortcut pressed then was lost (its id went nowhere, or into the page's own search). A small
 * inline script (with the page's CSP nonce) keeps them; the launcher takes them when it hydrates.
 */

/** What the person did before the launcher could listen: whether the palette is open, its search. */
export interface EarlyPaletteKeys {
  open: boolean;
  search: string;
  /** Removes the inline listener and this global: the launcher listens from then on. */
  stop(): void;
}

declare global {
  interface Window {
    __consolePaletteKeys?: EarlyPaletteKeys;
  }
}

// Plain ES5, as it runs before any bundle: the same keys the launcher's own listeners take.
const SCRIPT = `(function(){
var keys={open:false,search:''};
function listen(e){
var key=e.key||'';
if(key.toLowerCase()==='k'&&(e.ctrlKey||e.metaKey)&&!e.altKey){
if(e.repeat||e.isComposing)return;e.preventDefault();keys.open=!keys.open;keys.search='';return;}
if(!keys.open||e.ctrlKey||e.metaKey||e.altKey||e.isComposing)return;
if(key==='Escape'){keys.open=false;keys.search='';return;}
if(key==='Backspace'){e.preventDefault();keys.search=keys.search.slice(0,-1);return;}
if(key.length===1){e.preventDefault();keys.search+=key;}
}
keys.stop=function(){document.removeEventListener('keydown',listen,true);delete window.__consolePaletteKeys;};
window.__consolePaletteKeys=keys;
document.addEventListener('keydown',listen,true);})();`;

/** Rendered by the environment layout just before the launcher's button. */
export function PaletteEarlyKeysScript({ nonce }: { nonce: string | undefined }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of this file, no input in it.
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}

/**
 * The launcher, on hydrating: what was pressed before it listened. The inline listener stops and its
 * global goes, so the page keeps nothing typed (it could be a pasted token's characters).
 */
export function takeEarlyPaletteKeys(): Pick<EarlyPaletteKeys, 'open' | 'search'> | undefined {
  const keys = window.__consolePaletteKeys;
  if (!keys) return undefined;
  keys.stop();
  return { open: keys.open, search: keys.search };
}
