import { expect } from 'chai';
import type { Page } from 'playwright-core';

/**
 * Driving the console with the keyboard alone, as a user without a mouse does: Tab (forward, round past the end of
 * the page) to a control found by its name, type, pick options with the arrow keys, press Enter or Space. Tests read
 * the page with locators but never click or fill.
 */

/** The focused control's name: its label's text, aria-label, or text (buttons and links). */
async function focused(page: Page): Promise<{ name: string; tag: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as (HTMLElement & { labels?: NodeListOf<HTMLLabelElement> }) | null;
    if (!el || el === document.body) return { name: '', tag: '' };
    const label = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
    return { name: label.replace(/\s+/g, ' ').trim(), tag: el.tagName };
  });
}

/**
 * Moves focus with Tab to the control named `name` (a string: exactly; a RegExp: matches), of element `tag` when
 * given; stays when it already has focus.
 */
export async function tabTo(page: Page, name: string | RegExp, max = 200, tag?: string): Promise<void> {
  const seen: string[] = [];
  const matches = (f: { name: string; tag: string }) => (typeof name === 'string' ? f.name === name : name.test(f.name)) && (tag === undefined || f.tag === tag);
  if (matches(await focused(page))) return;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const current = await focused(page);
    if (matches(current)) return;
    seen.push(current.name);
  }
  throw new Error(`no control named ${String(name)} within ${max} Tab presses; focus went through: ${[...new Set(seen)].join(' | ')}`);
}

/** Tabs to the field labelled `label`, selects what is in it, and types `text` over it. */
export async function typeInto(page: Page, label: string | RegExp, text: string): Promise<void> {
  await tabTo(page, label, 200);
  expect(await page.evaluate(() => ['INPUT', 'TEXTAREA'].includes(document.activeElement?.tagName ?? ''))).to.equal(true);
  await page.keyboard.press('Control+A');
  if (text === '') await page.keyboard.press('Delete');
  else await page.keyboard.type(text);
}

/** Tabs to the select labelled `label` and moves to the option whose value is `value` with the arrow keys. */
export async function choose(page: Page, label: string | RegExp, value: string): Promise<void> {
  await tabTo(page, label, 200, 'SELECT');
  const { values, index } = await page.evaluate(() => {
    const select = document.activeElement as HTMLSelectElement;
    return { values: [...select.options].map((o) => o.value), index: select.selectedIndex };
  });
  const target = values.indexOf(value);
  if (target < 0) throw new Error(`${String(label)} has no option ${value} (${values.join(', ')})`);
  for (let i = index; i !== target; i += target > index ? 1 : -1) await page.keyboard.press(target > index ? 'ArrowDown' : 'ArrowUp');
  expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).to.equal(value);
}

/** Tabs to the control named `name` and presses Enter on it. */
export async function activate(page: Page, name: string | RegExp, max = 200): Promise<void> {
  await tabTo(page, name, max);
  await page.keyboard.press('Enter');
}

/**
 * After a dialog's action: it has closed. A view reloads its list before closing the dialog, so the success notice
 * (or the new row) can show while the dialog is still open; a key pressed then lands in the closing dialog.
 */
export async function dialogsClosed(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('dialog[open]') === null);
}

/** After a dialog opened: focus is inside it (native <dialog> moves it there). */
export async function expectFocusInDialog(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.closest('dialog[open]') !== null);
}
