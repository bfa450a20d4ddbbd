/**
 * The SDK's version (semver). The server serves this build at `/sdk/v{SDK_VERSION}/kit.js` with immutable caching,
 * so it must change with every release of the SDK; `packages/kit/package.json` carries the same number (a test
 * checks both).
 */
export const SDK_VERSION = '0.2.0';
