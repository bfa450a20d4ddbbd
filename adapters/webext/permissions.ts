import browser from 'webextension-polyfill';

/**
 * Asks the user for host permissions (e.g. the Platform API's origin). Must run inside a click handler before any
 * await: browsers grant the prompt only to a live user gesture. Resolves false when refused.
 */
export function requestHostPermissions(origins: readonly string[]): Promise<boolean> {
  return browser.permissions.request({ origins: [...origins] });
}

/** True when the extension already holds these host permissions. */
export function hasHostPermissions(origins: readonly string[]): Promise<boolean> {
  return browser.permissions.contains({ origins: [...origins] });
}
