import { Ajv2020 } from 'ajv/dist/2020.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; 'x-error-codes'?: string[] }>>; components: unknown };

const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Checks real responses against the served OpenAPI document: the status must be documented for the
 * operation, the body must match the documented schema, and an error's code must be in x-error-codes.
 */
export function createResponseValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  ajv.addFormat('email', /^[^@\s]+@[^@\s]+$/);
  ajv.addSchema({ ...doc, $id: 'https://kit.invalid/openapi.json' });
  return function validate(method: string, template: string, status: number, body: unknown): string | null {
    const operation = doc.paths[template]?.[method.toLowerCase()];
    if (!operation) return `${method} ${template} is not documented`;
    const response = operation.responses[String(status)];
    if (!response) return `${method} ${template} does not document status ${status}`;
    if (!response.content) return body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0) ? null : `${status} documents no body`;
    const pointer = `#/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}/content/${escape('application/json')}/schema`;
    const check = ajv.getSchema(`https://kit.invalid/openapi.json${pointer}`);
    if (!check) return `no schema at ${pointer}`;
    if (!check(body)) return `${method} ${template} ${status}: ${ajv.errorsText(check.errors)}`;
    const code = (body as { error?: { code?: string } })?.error?.code;
    if (status >= 400 && code && !(operation['x-error-codes'] ?? []).includes(code)) return `${method} ${template} answered ${code}, not in x-error-codes`;
    return null;
  };
}
