import { Worker } from 'node:worker_threads';

/**
 * Runs `module`'s export `name` on each input in a worker thread and fails — naming the input — when one call does
 * not return within `perCallMs`. A synchronous endless loop escapes mocha's timeout and freezes the whole run
 * (issue #10: `vetPattern('a\\u{')` hung `bash .ci/run` at 100 % CPU); in a worker it is a failed test instead.
 * `module` is a file URL (`new URL('…', import.meta.url).href`); the export takes one input and returns anything.
 */
export async function expectEachTerminates(module: string, name: string, inputs: readonly unknown[], perCallMs = 5_000): Promise<void> {
  const code = `
    import { parentPort, workerData } from 'node:worker_threads';
    import { tsImport } from 'tsx/esm/api';
    const mod = await tsImport(workerData.module, workerData.module);
    const fn = mod[workerData.name];
    if (typeof fn !== 'function') throw new Error(workerData.name + ' is not exported by ' + workerData.module);
    for (let i = 0; i < workerData.inputs.length; i++) {
      parentPort.postMessage({ started: i });
      fn(workerData.inputs[i]);
    }
    parentPort.postMessage({ done: true });`;
  const worker = new Worker(code, { eval: true, workerData: { module, name, inputs } });
  let current = -1;
  try {
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      // The first message waits for the module to load (tsx compiles it), so it gets a longer allowance.
      const arm = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const input = current < 0 ? '(module load)' : JSON.stringify(inputs[current]);
          reject(new Error(`${name} did not return within ${ms} ms for input #${current}: ${input}`));
        }, ms);
      };
      arm(20_000);
      worker.on('message', (m: { started?: number; done?: boolean }) => {
        if (m.done) {
          clearTimeout(timer);
          resolve();
          return;
        }
        current = m.started!;
        arm(perCallMs);
      });
      worker.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`worker exited with ${code} before finishing`));
      });
    });
  } finally {
    await worker.terminate();
  }
}
