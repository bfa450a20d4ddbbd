import type { TabStatus } from '../messages.js';

/** The content script bundle, relative to the extension root. */
export const CONTENT_SCRIPT = 'content.js';

export interface TabSwitchDeps {
  /** Tab ids the assistant is on in (extension session storage: survives a service worker restart). */
  readonly load: () => Promise<readonly number[]>;
  readonly save: (tabIds: readonly number[]) => Promise<void>;
  readonly inject: (tabId: number) => Promise<void>;
  /** Tells the tab's content script to remove everything; rejects when none listens. */
  readonly switchOff: (tabId: number) => Promise<unknown>;
  readonly badge: (tabId: number, text: string) => Promise<void>;
  /** False when no endpoint and key are saved yet. */
  readonly configured: () => Promise<boolean>;
}

/**
 * Switching the assistant on and off per tab. "On" survives reloads and navigations of that tab (the content script
 * is injected again when the new document has loaded, if the extension may still enter it) until switched off or
 * the tab closes.
 */
export function createTabSwitch(deps: TabSwitchDeps) {
  // Serialised: two quick toggles, or a toggle racing a page load, must not interleave their read-modify-writes.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = chain.then(task, task);
    chain = run.catch(() => undefined);
    return run;
  };
  const without = async (tabId: number): Promise<void> => deps.save((await deps.load()).filter((id) => id !== tabId));

  return {
    status: (tabId: number): Promise<TabStatus> => serial(async () => ({ on: (await deps.load()).includes(tabId) })),

    switchOn: (tabId: number): Promise<TabStatus> => serial(async () => {
      if (!(await deps.configured())) return { on: false, error: 'Set the endpoint and the publishable key in the options first.' };
      try {
        await deps.inject(tabId);
      } catch {
        return { on: false, error: 'Kit cannot run on this page (browser pages and extension stores are off limits).' };
      }
      const tabs = await deps.load();
      if (!tabs.includes(tabId)) await deps.save([...tabs, tabId]);
      await deps.badge(tabId, 'on').catch(() => undefined);
      return { on: true };
    }),

    switchOff: (tabId: number): Promise<TabStatus> => serial(async () => {
      await without(tabId);
      await deps.switchOff(tabId).catch(() => undefined); // no content script (page reloaded while off): nothing to remove
      await deps.badge(tabId, '').catch(() => undefined);
      return { on: false };
    }),

    /** A tab finished loading a document: bring the assistant back if it was on there. */
    loaded: (tabId: number): Promise<void> => serial(async () => {
      if (!(await deps.load()).includes(tabId)) return;
      try {
        await deps.inject(tabId);
        await deps.badge(tabId, 'on').catch(() => undefined);
      } catch {
        // Navigated somewhere the extension may not enter (another origin after an activeTab grant): switch off.
        await without(tabId);
        await deps.badge(tabId, '').catch(() => undefined);
      }
    }),

    removed: (tabId: number): Promise<void> => serial(() => without(tabId)),
  };
}
