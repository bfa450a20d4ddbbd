import { expect } from 'chai';
import { KitError } from '../../core/errors/index.js';
import { setupError } from '../../sdk/setup-error.js';

describe('setupError (the console message of a refused key or origin)', () => {
  const key = 'kit_pub_Ab3dEfGhIjKlMnOpQrStUvWxYz0123456789ab';
  const had = Object.getOwnPropertyDescriptor(globalThis, 'location');
  const at = (href: string, origin: string): void => {
    Object.defineProperty(globalThis, 'location', { value: { href, protocol: new URL(href).protocol, origin }, configurable: true, writable: true });
  };
  after(() => {
    if (had) Object.defineProperty(globalThis, 'location', had);
    else delete (globalThis as { location?: unknown }).location;
  });
  const refused = () => setupError(new KitError('origin_not_allowed', 'Origin not allowed.', { details: { request_id: 'req_abc' } }), key);

  it('tells an http(s) page to add its own origin to allowed_origins', () => {
    at('https://shop.example.com/pricing', 'https://shop.example.com');
    const err = refused();
    expect(err.code).to.equal('origin_not_allowed');
    expect(err.message).to.include('Add "https://shop.example.com" to the key\'s allowed_origins').and.include('kit_pub_Ab3d').and.include('(request req_abc)');
  });

  // The API refuses "file://" and "null" in allowed_origins ("is not an origin"): advising them was a dead end.
  for (const [what, href, origin] of [
    ['a file: page (Chromium names its origin "file://")', 'file:///home/ada/site/index.html', 'file://'],
    ['a file: page (Firefox names its origin "null")', 'file:///home/ada/site/index.html', 'null'],
    ['a sandboxed frame (opaque origin "null")', 'https://shop.example.com/frame.html', 'null'],
  ] as const) {
    it(`tells ${what} to serve it over http(s) instead of adding an origin the API refuses`, () => {
      at(href, origin);
      const err = refused();
      expect(err.code).to.equal('origin_not_allowed');
      expect(err.message).to.include('Serve the page over http(s), e.g. at http://localhost:8080, and add that origin to the key\'s allowed_origins');
      expect(err.message).to.not.include('Add "file://"').and.not.include('Add "null"');
      expect(err.message).to.include('kit_pub_Ab3d').and.include('(request req_abc)');
    });
  }
});
