// The part of fs-native-extensions (a CommonJS package without types) that data-dir-lock.ts uses.
declare module 'fs-native-extensions' {
  /** Exclusive (or shared) lock on the whole file; false when another open file description holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
