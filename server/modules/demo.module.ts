import { ContainerModule } from 'inversify';
import { DemoSite } from '../demo/demo-site.js';
import { TOKENS } from '../tokens.js';

/** The SDK bundle and demo site served beside the API. */
export const demoModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.DemoSite).to(DemoSite);
});
