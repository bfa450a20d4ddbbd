/**
 * A small interpreter for the subset of Go that gitleaks' rule sources (`cmd/generate/config/rules/*.go`) and their
 * generators (`utils/*.go`) are written in, so the redaction eval can run them as gitleaks does instead of
 * re-typing their cases: string literals and concatenation, slices, maps and struct literals, `append`, `len`,
 * `fmt.Sprintf`, `strings`, `encoding/base64`, local variables, `if`, `for` (three-clause, condition, range,
 * endless) with `break`/`continue`, and calls between the files' functions. Packages the sources import that run
 * gitleaks itself (the detector behind `utils.Validate`, the reggen generator behind `secrets.NewSecret`) are
 * supplied by the caller as native functions.
 *
 * Case provenance: every string that enters a slice or map as one literal element, one `append` argument or one
 * `utils.GenerateSampleSecrets(…)` call forms a *unit*, marked `generated` when a `secrets.NewSecret` call ran while
 * it was computed or it contains a value such a call returned earlier (a token kept in a variable and reused).
 * The eval splits cases into development and held-out halves by unit.
 */

// ---------------------------------------------------------------- lexer

type TokKind = 'ident' | 'int' | 'float' | 'string' | 'char' | 'op' | ';' | 'eof';
interface Tok { k: TokKind; v: string; line: number }

const OPS = ['...', '<<=', '>>=', '&^=', '&&', '||', '<-', '++', '--', '==', '!=', '<=', '>=', ':=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '&^'];
const SEMI_AFTER = new Set(['ident', 'int', 'float', 'string', 'char']);

function lex(src: string, file: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  const needSemi = () => {
    const last = toks[toks.length - 1];
    if (!last) return false;
    if (SEMI_AFTER.has(last.k)) return !(last.k === 'ident' && /^(?:if|else|for|func|var|const|import|package|type|switch|case|default|go|defer|select|map|struct|interface|chan|range)$/.test(last.v));
    return last.k === 'op' && (last.v === ')' || last.v === ']' || last.v === '}' || last.v === '++' || last.v === '--');
  };
  const newline = () => {
    if (needSemi()) toks.push({ k: ';', v: '\n', line });
    line++;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') { newline(); i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`${file}:${line}: unterminated comment`);
      const body = src.slice(i, end);
      for (const ch of body) if (ch === '\n') newline();
      i = end + 2;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_0-9]+/.exec(src.slice(i, i + 200))!;
      toks.push({ k: 'ident', v: m[0], line });
      i += m[0].length;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9A-Fa-f_]+|[0-9_]*\.?[0-9_]*(?:[eE][+-]?[0-9]+)?)/.exec(src.slice(i, i + 100))!;
      toks.push({ k: /[.eE]/.test(m[0]) && !/^0[xX]/.test(m[0]) ? 'float' : 'int', v: m[0].replace(/_/g, ''), line });
      i += m[0].length;
      continue;
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new Error(`${file}:${line}: unterminated raw string`);
      const raw = src.slice(i + 1, end);
      toks.push({ k: 'string', v: raw.replace(/\r/g, ''), line });
      for (const ch of raw) if (ch === '\n') line++;
      i = end + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let out = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\n') throw new Error(`${file}:${line}: newline in string`);
        if (src[j] === '\\') {
          const [s, n] = unescape(src, j, c);
          out += s;
          j = n;
        } else {
          out += src[j];
          j++;
        }
      }
      if (src[j] !== c) throw new Error(`${file}:${line}: unterminated string`);
      toks.push({ k: c === '"' ? 'string' : 'char', v: out, line });
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i)) ?? c;
    if (!OPS.includes(op) && !'+-*/%&|^<>=!()[]{},;.:~'.includes(op)) throw new Error(`${file}:${line}: unexpected character ${JSON.stringify(c)}`);
    toks.push(op === ';' ? { k: ';', v: ';', line } : { k: 'op', v: op, line });
    i += op.length;
  }
  if (needSemi()) toks.push({ k: ';', v: '\n', line });
  toks.push({ k: 'eof', v: '', line });
  return toks;
}

/** One escape sequence of an interpreted string or rune literal starting at src[j] === '\\'. */
function unescape(src: string, j: number, quote: string): [string, number] {
  const e = src[j + 1]!;
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  if (e in simple) return [simple[e]!, j + 2];
  if (e === quote) return [e, j + 2];
  if (e === 'x') return [String.fromCharCode(parseInt(src.slice(j + 2, j + 4), 16)), j + 4];
  if (e === 'u') return [String.fromCodePoint(parseInt(src.slice(j + 2, j + 6), 16)), j + 6];
  if (e === 'U') return [String.fromCodePoint(parseInt(src.slice(j + 2, j + 10), 16)), j + 10];
  if (/[0-7]/.test(e)) return [String.fromCharCode(parseInt(src.slice(j + 1, j + 4), 8)), j + 4];
  throw new Error(`unknown escape \\${e}`);
}

// ---------------------------------------------------------------- parser

export type Type =
  | { t: 'name'; pkg?: string; name: string }
  | { t: 'slice'; elem: Type }
  | { t: 'array'; elem: Type }
  | { t: 'map'; key: Type; val: Type }
  | { t: 'ptr'; elem: Type }
  | { t: 'func' };

type Expr =
  | { e: 'lit'; v: unknown }
  | { e: 'ident'; name: string }
  | { e: 'sel'; x: Expr; name: string }
  | { e: 'index'; x: Expr; i: Expr }
  | { e: 'slice'; x: Expr; lo?: Expr; hi?: Expr }
  | { e: 'call'; fn: Expr; args: Expr[]; spread: boolean; line: number }
  | { e: 'conv'; type: Type; x: Expr }
  | { e: 'composite'; type: Type | null; elems: { key?: Expr; value: Expr }[] }
  | { e: 'unary'; op: string; x: Expr }
  | { e: 'binary'; op: string; l: Expr; r: Expr }
  | { e: 'typeExpr'; type: Type };

type Stmt =
  | { s: 'expr'; x: Expr }
  | { s: 'define' | 'assign'; lhs: Expr[]; rhs: Expr[]; op: string }
  | { s: 'incdec'; x: Expr; op: string }
  | { s: 'var'; names: string[]; type: Type | null; values: Expr[] }
  | { s: 'return'; values: Expr[] }
  | { s: 'if'; init: Stmt | null; cond: Expr; then: Stmt[]; else: Stmt[] | null }
  | { s: 'for'; init: Stmt | null; cond: Expr | null; post: Stmt | null; body: Stmt[] }
  | { s: 'range'; key: Expr | null; value: Expr | null; define: boolean; x: Expr; body: Stmt[] }
  | { s: 'block'; body: Stmt[] }
  | { s: 'seq'; body: Stmt[] }
  | { s: 'break' | 'continue' };

export interface FuncDecl { name: string; params: string[]; variadic: boolean; body: Stmt[]; file: string }
interface VarDecl { names: string[]; type: Type | null; values: Expr[] }
export interface GoFile { pkg: string; imports: Map<string, string>; funcs: FuncDecl[]; vars: VarDecl[] }

class GoParser {
  private p = 0;
  private noLit = 0;
  private readonly toks: Tok[];
  constructor(src: string, private readonly fileName: string) {
    this.toks = lex(src, fileName);
  }

  private get tok(): Tok { return this.toks[this.p]!; }
  private is(v: string): boolean { const t = this.tok; return (t.k === 'op' || t.k === 'ident') && t.v === v; }
  private error(msg: string): Error { return new Error(`${this.fileName}:${this.tok.line}: ${msg} (at ${JSON.stringify(this.tok.v)})`); }
  private expect(v: string): void {
    if (!this.is(v)) throw this.error(`expected ${v}`);
    this.p++;
  }
  private skipSemis(): void { while (this.tok.k === ';') this.p++; }
  private ident(): string {
    if (this.tok.k !== 'ident') throw this.error('expected an identifier');
    return this.toks[this.p++]!.v;
  }

  file(): GoFile {
    this.skipSemis();
    this.expect('package');
    const pkg = this.ident();
    const out: GoFile = { pkg, imports: new Map(), funcs: [], vars: [] };
    this.skipSemis();
    while (this.tok.k !== 'eof') {
      if (this.is('import')) this.importDecl(out.imports);
      else if (this.is('func')) { const f = this.funcDecl(); if (f) out.funcs.push(f); }
      else if (this.is('var') || this.is('const')) { this.p++; this.group(() => out.vars.push(this.varSpec())); }
      else if (this.is('type')) this.skipDecl();
      else throw this.error('unexpected top-level token');
      this.skipSemis();
    }
    return out;
  }

  private group(spec: () => void): void {
    if (this.is('(')) {
      this.p++;
      this.skipSemis();
      while (!this.is(')')) { spec(); this.skipSemis(); }
      this.p++;
    } else {
      spec();
    }
  }

  private importDecl(imports: Map<string, string>): void {
    this.p++;
    this.group(() => {
      let alias: string | null = null;
      if (this.tok.k === 'ident' || this.is('.') || this.is('_')) alias = this.toks[this.p++]!.v;
      if (this.tok.k !== 'string') throw this.error('expected an import path');
      const path = this.toks[this.p++]!.v;
      imports.set(alias ?? path.split('/').pop()!, path);
    });
  }

  private skipDecl(): void {
    let depth = 0;
    while (this.tok.k !== 'eof') {
      if (this.is('(') || this.is('{') || this.is('[')) depth++;
      else if (this.is(')') || this.is('}') || this.is(']')) depth--;
      else if (this.tok.k === ';' && depth === 0) return;
      this.p++;
    }
  }

  private funcDecl(): FuncDecl | null {
    this.expect('func');
    let method = false;
    if (this.is('(')) { this.skipParens(); method = true; }
    const name = this.ident();
    const start = this.p;
    const params = this.params();
    const variadic = this.toks.slice(start, this.p).some((t) => t.k === 'op' && t.v === '...');
    if (!this.is('{')) this.resultType();
    const body = this.block();
    return method ? null : { name, params, variadic, body, file: this.fileName };
  }

  private skipParens(): void {
    let depth = 0;
    do {
      if (this.is('(')) depth++;
      else if (this.is(')')) depth--;
      this.p++;
    } while (depth > 0);
  }

  /** Parameter names in order (a parameter list of types only gives placeholders). */
  private params(): string[] {
    this.expect('(');
    const entries: Tok[][] = [];
    let cur: Tok[] = [];
    let depth = 0;
    while (!(depth === 0 && this.is(')'))) {
      if (this.is('(') || this.is('[') || this.is('{')) depth++;
      if (this.is(')') || this.is(']') || this.is('}')) depth--;
      if (depth === 0 && this.is(',')) { entries.push(cur); cur = []; } else cur.push(this.tok);
      this.p++;
    }
    if (cur.length) entries.push(cur);
    this.p++;
    const named = entries.some((e) => e.length >= 2 && e[0]!.k === 'ident' && !(e[1]!.k === 'op' && e[1]!.v === '.'));
    return entries.map((e, i) => (named ? e[0]!.v : `_${i}`));
  }

  private resultType(): void {
    if (this.is('(')) this.skipParens();
    else this.type();
  }

  type(): Type {
    if (this.is('*')) { this.p++; return { t: 'ptr', elem: this.type() }; }
    if (this.is('[')) {
      this.p++;
      if (this.is(']')) { this.p++; return { t: 'slice', elem: this.type() }; }
      if (this.is('...')) this.p++; else this.expr();
      this.expect(']');
      return { t: 'array', elem: this.type() };
    }
    if (this.is('map')) {
      this.p++;
      this.expect('[');
      const key = this.type();
      this.expect(']');
      return { t: 'map', key, val: this.type() };
    }
    if (this.is('func')) { this.p++; this.skipParens(); if (!this.is('{') && this.tok.k !== ';' && !this.is(')') && !this.is(',')) this.resultType(); return { t: 'func' }; }
    if (this.is('...')) { this.p++; return { t: 'slice', elem: this.type() }; }
    const name = this.ident();
    if (this.is('.')) { this.p++; return { t: 'name', pkg: name, name: this.ident() }; }
    return { t: 'name', name };
  }

  private block(): Stmt[] {
    this.expect('{');
    const saved = this.noLit;
    this.noLit = 0;
    const body: Stmt[] = [];
    this.skipSemis();
    while (!this.is('}')) {
      body.push(this.stmt());
      this.skipSemis();
    }
    this.p++;
    this.noLit = saved;
    return body;
  }

  private stmt(): Stmt {
    if (this.is('{')) return { s: 'block', body: this.block() };
    if (this.is('var') || this.is('const')) {
      this.p++;
      const specs: VarDecl[] = [];
      this.group(() => specs.push(this.varSpec()));
      return specs.length === 1 ? { s: 'var', ...specs[0]! } : { s: 'seq', body: specs.map((v) => ({ s: 'var', ...v }) as Stmt) };
    }
    if (this.is('return')) {
      this.p++;
      const values = this.tok.k === ';' || this.is('}') ? [] : this.exprList();
      return { s: 'return', values };
    }
    if (this.is('break') || this.is('continue')) return { s: this.toks[this.p++]!.v as 'break' | 'continue' };
    if (this.is('if')) return this.ifStmt();
    if (this.is('for')) return this.forStmt();
    if (this.is('switch') || this.is('go') || this.is('defer') || this.is('select') || this.is('goto')) throw this.error('unsupported statement');
    return this.simpleStmt();
  }

  private varSpec(): VarDecl {
    const names = [this.ident()];
    while (this.is(',')) { this.p++; names.push(this.ident()); }
    const type = this.is('=') ? null : this.type();
    let values: Expr[] = [];
    if (this.is('=')) { this.p++; values = this.exprList(); }
    return { names, type, values };
  }

  private simpleStmt(): Stmt {
    const lhs = this.exprList();
    const t = this.tok;
    if (t.k === 'op' && (t.v === ':=' || t.v === '=' || /^(?:[-+*/%&|^]|<<|>>|&\^)=$/.test(t.v))) {
      this.p++;
      if (this.is('range')) {
        this.p++;
        const x = this.expr();
        return { s: 'range', key: lhs[0] ?? null, value: lhs[1] ?? null, define: t.v === ':=', x, body: [] };
      }
      const rhs = this.exprList();
      return t.v === ':=' ? { s: 'define', lhs, rhs, op: t.v } : { s: 'assign', lhs, rhs, op: t.v };
    }
    if (t.k === 'op' && (t.v === '++' || t.v === '--')) { this.p++; return { s: 'incdec', x: lhs[0]!, op: t.v }; }
    if (lhs.length !== 1) throw this.error('expected an assignment');
    return { s: 'expr', x: lhs[0]! };
  }

  private ifStmt(): Stmt {
    this.expect('if');
    this.noLit++;
    let init: Stmt | null = this.simpleStmt();
    let cond: Expr;
    if (this.tok.k === ';') {
      this.p++;
      cond = this.expr();
    } else {
      if (init.s !== 'expr') throw this.error('if needs a condition');
      cond = init.x;
      init = null;
    }
    this.noLit--;
    const then = this.block();
    let els: Stmt[] | null = null;
    if (this.is('else')) {
      this.p++;
      els = this.is('if') ? [this.ifStmt()] : this.block();
    }
    return { s: 'if', init, cond, then, else: els };
  }

  private forStmt(): Stmt {
    this.expect('for');
    if (this.is('{')) return { s: 'for', init: null, cond: null, post: null, body: this.block() };
    this.noLit++;
    let result: Stmt;
    if (this.is('range')) {
      this.p++;
      result = { s: 'range', key: null, value: null, define: false, x: this.expr(), body: [] };
    } else {
      const first = this.tok.k === ';' ? null : this.simpleStmt();
      if (first?.s === 'range') {
        result = first;
      } else if (this.tok.k === ';') {
        this.p++;
        const cond = this.tok.k === ';' ? null : this.expr();
        if (this.tok.k !== ';') throw this.error('expected ;');
        this.p++;
        const post = this.is('{') ? null : this.simpleStmt();
        result = { s: 'for', init: first, cond, post, body: [] };
      } else {
        if (first?.s !== 'expr') throw this.error('for needs a condition');
        result = { s: 'for', init: null, cond: first.x, post: null, body: [] };
      }
    }
    this.noLit--;
    (result as { body: Stmt[] }).body = this.block();
    return result;
  }

  private exprList(): Expr[] {
    const list = [this.expr()];
    while (this.is(',')) { this.p++; list.push(this.expr()); }
    return list;
  }

  expr(prec = 1): Expr {
    let l = this.unary();
    for (;;) {
      const t = this.tok;
      const p = t.k === 'op' ? binaryPrec(t.v) : 0;
      if (p < prec) return l;
      this.p++;
      const r = this.expr(p + 1);
      l = { e: 'binary', op: t.v, l, r };
    }
  }

  private unary(): Expr {
    const t = this.tok;
    if (t.k === 'op' && ['!', '-', '+', '^', '&', '*', '<-'].includes(t.v)) {
      this.p++;
      return { e: 'unary', op: t.v, x: this.unary() };
    }
    return this.primary();
  }

  private primary(): Expr {
    let x = this.operand();
    for (;;) {
      if (this.is('.')) {
        this.p++;
        if (this.is('(')) throw this.error('type assertions are not supported');
        x = { e: 'sel', x, name: this.ident() };
      } else if (this.is('[')) {
        this.p++;
        const saved = this.noLit;
        this.noLit = 0;
        let lo: Expr | undefined;
        if (!this.is(':')) lo = this.expr();
        if (this.is(':')) {
          this.p++;
          const hi = this.is(']') ? undefined : this.expr();
          x = { e: 'slice', x, lo, hi };
        } else {
          x = { e: 'index', x, i: lo! };
        }
        this.noLit = saved;
        this.expect(']');
      } else if (this.is('(')) {
        const line = this.tok.line;
        this.p++;
        const saved = this.noLit;
        this.noLit = 0;
        const args: Expr[] = [];
        let spread = false;
        this.skipSemis();
        while (!this.is(')')) {
          args.push(this.is('[') || this.is('map') ? this.typeOrExpr() : this.expr());
          if (this.is('...')) { this.p++; spread = true; }
          if (this.is(',')) this.p++;
          this.skipSemis();
        }
        this.p++;
        this.noLit = saved;
        x = { e: 'call', fn: x, args, spread, line };
      } else if (this.is('{') && this.noLit === 0 && couldBeType(x)) {
        x = this.composite(typeOf(x));
      } else {
        return x;
      }
    }
  }

  /** `[]byte(x)`, `[]string{…}`, `map[…]…{…}` in operand position. */
  private typeOrExpr(): Expr {
    const type = this.type();
    if (this.is('{')) return this.composite(type);
    if (this.is('(')) {
      this.p++;
      const x = this.expr();
      this.expect(')');
      return { e: 'conv', type, x };
    }
    return { e: 'typeExpr', type };
  }

  private operand(): Expr {
    const t = this.tok;
    if (t.k === 'string') { this.p++; return { e: 'lit', v: t.v }; }
    if (t.k === 'int') { this.p++; return { e: 'lit', v: Number(t.v) }; }
    if (t.k === 'float') { this.p++; return { e: 'lit', v: Number(t.v) }; }
    if (t.k === 'char') { this.p++; return { e: 'lit', v: t.v.codePointAt(0) }; }
    if (this.is('(')) {
      this.p++;
      const saved = this.noLit;
      this.noLit = 0;
      const x = this.expr();
      this.noLit = saved;
      this.expect(')');
      return x;
    }
    if (this.is('[') || this.is('map')) return this.typeOrExpr();
    if (this.is('func') || this.is('struct') || this.is('interface') || this.is('chan')) throw this.error('unsupported operand');
    if (t.k === 'ident') { this.p++; return { e: 'ident', name: t.v }; }
    throw this.error('unexpected token in expression');
  }

  private composite(type: Type | null): Expr {
    this.expect('{');
    const saved = this.noLit;
    this.noLit = 0;
    const elems: { key?: Expr; value: Expr }[] = [];
    this.skipSemis();
    while (!this.is('}')) {
      let value = this.is('{') ? this.composite(null) : this.expr();
      let key: Expr | undefined;
      if (this.is(':')) {
        this.p++;
        key = value;
        value = this.is('{') ? this.composite(null) : this.expr();
      }
      elems.push({ key, value });
      if (this.is(',')) this.p++;
      this.skipSemis();
    }
    this.p++;
    this.noLit = saved;
    return { e: 'composite', type, elems };
  }
}

function binaryPrec(op: string): number {
  if (op === '||') return 1;
  if (op === '&&') return 2;
  if (['==', '!=', '<', '<=', '>', '>='].includes(op)) return 3;
  if (['+', '-', '|', '^'].includes(op)) return 4;
  if (['*', '/', '%', '<<', '>>', '&', '&^'].includes(op)) return 5;
  return 0;
}

function couldBeType(x: Expr): boolean {
  return x.e === 'ident' || (x.e === 'sel' && x.x.e === 'ident') || x.e === 'typeExpr';
}

function typeOf(x: Expr): Type {
  if (x.e === 'ident') return { t: 'name', name: x.name };
  if (x.e === 'sel' && x.x.e === 'ident') return { t: 'name', pkg: x.x.name, name: x.name };
  if (x.e === 'typeExpr') return x.type;
  throw new Error('not a type');
}

export function parseGo(src: string, file: string): GoFile {
  return new GoParser(src, file).file();
}

// ---------------------------------------------------------------- values

/** A unit of cases: what one literal element, one append argument or one GenerateSampleSecrets call produced. */
export interface Unit { readonly id: number; readonly generated: boolean }

/** A Go slice; `units[i]` says where item i came from (null for values that are not cases). */
export class GoSlice {
  constructor(public items: unknown[] = [], public units: (Unit | null)[] = []) {}
}
export class GoMap {
  readonly m = new Map<unknown, unknown>();
  readonly units = new Map<unknown, Unit | null>();
}
export class GoBytes {
  constructor(readonly b: Buffer) {}
}
/** A struct value: its Go type name and fields. */
export class GoStruct {
  constructor(readonly type: string, readonly fields: Record<string, unknown>) {}
}
/** A function implemented in TypeScript; receives evaluated arguments. */
export type Native = (...args: unknown[]) => unknown;
/** Several results of one call (natives return one for Go functions with several results). */
export class Multi {
  constructor(readonly values: unknown[]) {}
}

class Scope {
  private readonly vars = new Map<string, { v: unknown }>();
  constructor(readonly parent: Scope | null) {}
  lookup(name: string): { v: unknown } | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }
  define(name: string, v: unknown): void {
    if (name !== '_') this.vars.set(name, { v });
  }
}

type Signal = { sig: 'break' } | { sig: 'continue' } | { sig: 'return'; values: unknown[] } | undefined;

export interface PackageSpec {
  /** Parsed files of the package (functions and package-level variables). */
  readonly files: readonly GoFile[];
  /** Native members, which win over same-named Go functions. */
  readonly natives?: Readonly<Record<string, unknown>>;
}

export interface InterpreterOptions {
  /** Packages by import path (Go source, natives, or both). */
  readonly packages: Readonly<Record<string, PackageSpec>>;
  /** How many `secrets.NewSecret` calls ran so far: a unit computed while the count moved is generated. */
  readonly newSecretCalls: () => number;
  /** Whether a string holds a generated value computed earlier (a variable set from NewSecret, then reused). */
  readonly holdsGenerated: (s: string) => boolean;
  /** Functions (by `pkg.Name`) whose slice result forms one unit, e.g. `utils.GenerateSampleSecrets`. */
  readonly unitFunctions: ReadonlySet<string>;
}

interface Pkg { path: string; name: string; scope: Scope; funcs: Map<string, FuncDecl>; imports: Map<string, Map<string, string>>; lazy: Map<string, () => void> }

/** Runs Go functions of the given packages. */
export class GoInterpreter {
  private readonly pkgs = new Map<string, Pkg>();
  private nextUnit = 1;

  constructor(private readonly opts: InterpreterOptions) {}

  /** Calls `name` of the package at `path` with `args`; returns its result (an array for several results). */
  call(path: string, name: string, args: unknown[] = []): unknown {
    const pkg = this.pkg(path);
    const fn = pkg.scope.lookup(name)?.v;
    return this.invoke(fn, args, `${path}.${name}`);
  }

  /** Exported functions of a package without parameters (gitleaks' rule constructors). */
  ruleFunctions(path: string): string[] {
    return [...this.pkg(path).funcs.values()].filter((f) => /^[A-Z]/.test(f.name) && f.params.length === 0).map((f) => f.name);
  }

  private pkg(path: string): Pkg {
    let pkg = this.pkgs.get(path);
    if (pkg) return pkg;
    const spec = this.opts.packages[path];
    if (!spec) throw new Error(`package ${path} is not available`);
    pkg = { path, name: path.split('/').pop()!, scope: new Scope(null), funcs: new Map(), imports: new Map(), lazy: new Map() };
    this.pkgs.set(path, pkg);
    const p = pkg;
    for (const f of spec.files) {
      for (const fn of f.funcs) {
        p.funcs.set(fn.name, fn);
        p.scope.define(fn.name, { go: fn, pkg: p });
      }
      for (const v of f.vars) {
        // Package variables are evaluated on first use, so their order across files does not matter.
        const evaluate = () => {
          for (const n of v.names) p.lazy.delete(n);
          const values = this.evalValues(v.values, new Scope(p.scope), f.imports, p, v.names.length, v.type);
          v.names.forEach((n, i) => p.scope.define(n, values[i]));
        };
        for (const n of v.names) p.lazy.set(n, evaluate);
      }
      for (const fn of f.funcs) p.imports.set(fn.name, f.imports);
    }
    for (const [name, value] of Object.entries(spec.natives ?? {})) p.scope.define(name, value);
    return pkg;
  }

  private newUnit(generated: boolean): Unit {
    return { id: this.nextUnit++, generated };
  }

  // ------------------------------------------------------------ functions

  private invoke(fn: unknown, args: unknown[], what: string): unknown {
    if (typeof fn === 'function') return (fn as Native)(...args);
    if (fn && typeof fn === 'object' && 'go' in fn) {
      const { go, pkg } = fn as { go: FuncDecl; pkg: Pkg };
      const scope = new Scope(pkg.scope);
      go.params.forEach((name, i) => {
        if (go.variadic && i === go.params.length - 1) scope.define(name, new GoSlice(args.slice(i), args.slice(i).map(() => null)));
        else scope.define(name, args[i]);
      });
      const sig = this.execBlock(go.body, scope, pkg.imports.get(go.name)!, pkg);
      if (sig?.sig === 'return') return sig.values.length === 1 ? sig.values[0] : new Multi(sig.values);
      return undefined;
    }
    throw new Error(`${what} is not a function`);
  }

  // ------------------------------------------------------------ statements

  private execBlock(body: readonly Stmt[], scope: Scope, imports: Map<string, string>, pkg: Pkg): Signal {
    for (const st of body) {
      const sig = this.exec(st, scope, imports, pkg);
      if (sig) return sig;
    }
    return undefined;
  }

  private exec(st: Stmt, scope: Scope, imports: Map<string, string>, pkg: Pkg): Signal {
    const ev = (x: Expr, s = scope) => this.eval(x, s, imports, pkg);
    switch (st.s) {
      case 'expr': ev(st.x); return undefined;
      case 'var': {
        const values = this.evalValues(st.values, scope, imports, pkg, st.names.length, st.type);
        st.names.forEach((n, i) => scope.define(n, values[i]));
        return undefined;
      }
      case 'define': {
        const values = this.evalValues(st.rhs, scope, imports, pkg, st.lhs.length, null);
        st.lhs.forEach((l, i) => {
          if (l.e !== 'ident') throw new Error(':= needs identifiers');
          scope.define(l.name, values[i]);
        });
        return undefined;
      }
      case 'assign': {
        if (st.op === '=') {
          const values = this.evalValues(st.rhs, scope, imports, pkg, st.lhs.length, null);
          st.lhs.forEach((l, i) => this.store(l, values[i], scope, imports, pkg));
        } else {
          const l = st.lhs[0]!;
          this.store(l, binary(st.op.slice(0, -1), ev(l), ev(st.rhs[0]!)), scope, imports, pkg);
        }
        return undefined;
      }
      case 'incdec': this.store(st.x, (ev(st.x) as number) + (st.op === '++' ? 1 : -1), scope, imports, pkg); return undefined;
      case 'return': return { sig: 'return', values: this.evalValues(st.values, scope, imports, pkg, st.values.length === 1 ? 1 : st.values.length, null) };
      case 'break': return { sig: 'break' };
      case 'continue': return { sig: 'continue' };
      case 'block': return this.execBlock(st.body, new Scope(scope), imports, pkg);
      case 'seq': return this.execBlock(st.body, scope, imports, pkg);
      case 'if': {
        const inner = new Scope(scope);
        if (st.init) this.exec(st.init, inner, imports, pkg);
        if (truthy(ev(st.cond, inner))) return this.execBlock(st.then, new Scope(inner), imports, pkg);
        if (st.else) return this.execBlock(st.else, new Scope(inner), imports, pkg);
        return undefined;
      }
      case 'for': {
        const inner = new Scope(scope);
        if (st.init) this.exec(st.init, inner, imports, pkg);
        for (let guard = 0; ; guard++) {
          if (guard > 1_000_000) throw new Error('loop ran away');
          if (st.cond && !truthy(ev(st.cond, inner))) return undefined;
          const sig = this.execBlock(st.body, new Scope(inner), imports, pkg);
          if (sig?.sig === 'break') return undefined;
          if (sig?.sig === 'return') return sig;
          if (st.post) this.exec(st.post, inner, imports, pkg);
        }
      }
      case 'range': {
        const x = ev(st.x);
        const entries: [unknown, unknown][] = x instanceof GoSlice ? x.items.map((v, i) => [i, v])
          : x instanceof GoMap ? [...x.m.entries()]
          : typeof x === 'string' ? [...x].map((ch, i) => [i, ch.codePointAt(0)])
          : typeof x === 'number' ? Array.from({ length: x }, (_, i) => [i, undefined])
          : x == null ? [] : (() => { throw new Error(`cannot range over ${Object.prototype.toString.call(x)} ${JSON.stringify(st.x).slice(0, 200)}`); })();
        for (const [k, v] of entries) {
          const inner = new Scope(scope);
          const bind = (target: Expr | null, value: unknown) => {
            if (!target) return;
            if (st.define) {
              if (target.e !== 'ident') throw new Error('range := needs identifiers');
              inner.define(target.name, value);
            } else {
              this.store(target, value, inner, imports, pkg);
            }
          };
          bind(st.key, k);
          bind(st.value, v);
          const sig = this.execBlock(st.body, inner, imports, pkg);
          if (sig?.sig === 'break') break;
          if (sig?.sig === 'return') return sig;
        }
        return undefined;
      }
    }
  }

  private store(target: Expr, value: unknown, scope: Scope, imports: Map<string, string>, pkg: Pkg): void {
    if (target.e === 'ident') {
      if (target.name === '_') return;
      const ref = scope.lookup(target.name);
      if (!ref) throw new Error(`assignment to undeclared ${target.name}`);
      ref.v = value;
      return;
    }
    if (target.e === 'sel') {
      const obj = this.eval(target.x, scope, imports, pkg);
      if (obj instanceof GoStruct) { obj.fields[target.name] = value; return; }
    }
    if (target.e === 'index') {
      const obj = this.eval(target.x, scope, imports, pkg);
      const i = this.eval(target.i, scope, imports, pkg);
      if (obj instanceof GoMap) { obj.m.set(i, value); return; }
      if (obj instanceof GoSlice) { obj.items[i as number] = value; return; }
    }
    throw new Error('unsupported assignment target');
  }

  /** Values of an expression list, expanding one multi-result call into `want` values. */
  private evalValues(exprs: readonly Expr[], scope: Scope, imports: Map<string, string>, pkg: Pkg, want: number, type: Type | null): unknown[] {
    if (exprs.length === 0) return Array.from({ length: want }, () => zero(type));
    const values = exprs.map((x) => this.eval(x, scope, imports, pkg));
    if (values.length === 1 && values[0] instanceof Multi) return values[0].values;
    return values;
  }

  // ------------------------------------------------------------ expressions

  private eval(x: Expr, scope: Scope, imports: Map<string, string>, pkg: Pkg): unknown {
    const ev = (y: Expr) => this.eval(y, scope, imports, pkg);
    switch (x.e) {
      case 'lit': return x.v;
      case 'ident': return this.identValue(x.name, scope, pkg);
      case 'sel': {
        if (x.x.e === 'ident' && !scope.lookup(x.x.name) && !pkg.lazy.has(x.x.name) && imports.has(x.x.name)) {
          const other = this.pkg(imports.get(x.x.name)!);
          return this.identValue(x.name, other.scope, other);
        }
        return member(ev(x.x), x.name);
      }
      case 'index': {
        const obj = ev(x.x);
        const i = ev(x.i);
        if (obj instanceof GoSlice) return obj.items[i as number];
        if (obj instanceof GoMap) return obj.m.get(i);
        if (typeof obj === 'string') return obj.charCodeAt(i as number);
        throw new Error('cannot index this value');
      }
      case 'slice': {
        const obj = ev(x.x);
        const lo = x.lo ? (ev(x.lo) as number) : 0;
        if (typeof obj === 'string') return obj.slice(lo, x.hi ? (ev(x.hi) as number) : undefined);
        if (obj instanceof GoSlice) {
          const hi = x.hi ? (ev(x.hi) as number) : obj.items.length;
          return new GoSlice(obj.items.slice(lo, hi), obj.units.slice(lo, hi));
        }
        throw new Error('cannot slice this value');
      }
      case 'unary': {
        const v = ev(x.x);
        if (x.op === '!') return !truthy(v);
        if (x.op === '-') return -(v as number);
        if (x.op === '&' || x.op === '*' || x.op === '+') return v;
        throw new Error(`unsupported unary ${x.op}`);
      }
      case 'binary': {
        if (x.op === '&&') return truthy(ev(x.l)) && truthy(ev(x.r));
        if (x.op === '||') return truthy(ev(x.l)) || truthy(ev(x.r));
        return binary(x.op, ev(x.l), ev(x.r));
      }
      case 'conv': return convert(x.type, ev(x.x));
      case 'typeExpr': return x.type;
      case 'composite': return this.composite(x.type, x.elems, scope, imports, pkg);
      case 'call': return this.evalCall(x, scope, imports, pkg);
    }
  }

  private identValue(name: string, scope: Scope, pkg: Pkg): unknown {
    const lazy = pkg.lazy.get(name);
    if (lazy && !scope.lookup(name)) lazy();
    const ref = scope.lookup(name);
    if (ref) return ref.v;
    switch (name) {
      case 'nil': return null;
      case 'true': return true;
      case 'false': return false;
      case 'string': case 'byte': case 'rune': case 'int': case 'float64': case 'bool': return { t: 'name', name } satisfies Type;
      default: throw new Error(`undefined: ${name}`);
    }
  }

  private composite(type: Type | null, elems: readonly { key?: Expr; value: Expr }[], scope: Scope, imports: Map<string, string>, pkg: Pkg, inferred: Type | null = null): unknown {
    const t = type ?? inferred;
    if (!t) throw new Error('composite literal without a type');
    const counted = (value: Expr, elemType: Type | null): [unknown, Unit | null] => {
      const before = this.opts.newSecretCalls();
      const v = value.e === 'composite' && value.type === null ? this.composite(null, value.elems, scope, imports, pkg, elemType) : this.eval(value, scope, imports, pkg);
      return [v, typeof v === 'string' ? this.newUnit(this.opts.newSecretCalls() !== before || this.opts.holdsGenerated(v)) : null];
    };
    if (t.t === 'slice' || t.t === 'array') {
      const out = new GoSlice();
      for (const el of elems) {
        const [v, u] = counted(el.value, t.elem.t === 'ptr' ? t.elem.elem : t.elem);
        out.items.push(v);
        out.units.push(u);
      }
      return out;
    }
    if (t.t === 'map') {
      const out = new GoMap();
      for (const el of elems) {
        const k = this.eval(el.key!, scope, imports, pkg);
        const [v, u] = counted(el.value, t.val);
        out.m.set(k, v);
        out.units.set(k, u);
      }
      return out;
    }
    if (t.t === 'ptr') return this.composite(null, elems, scope, imports, pkg, t.elem);
    if (t.t === 'name') {
      const fields: Record<string, unknown> = {};
      for (const el of elems) {
        if (el.key?.e !== 'ident') throw new Error('struct literal needs field names');
        fields[el.key.name] = el.value.e === 'composite' && el.value.type === null ? this.composite(null, el.value.elems, scope, imports, pkg, null) : this.eval(el.value, scope, imports, pkg);
      }
      const typeName = t.pkg ? `${t.pkg}.${t.name}` : t.name;
      const ctor = t.pkg && imports.has(t.pkg) ? this.pkg(imports.get(t.pkg)!).scope.lookup(t.name)?.v : undefined;
      // A native type constructor (e.g. config.Allowlist with its methods) builds the value from the fields.
      if (typeof ctor === 'function' && (ctor as { isType?: boolean }).isType) return (ctor as Native)(fields);
      return new GoStruct(typeName, fields);
    }
    throw new Error('unsupported composite literal');
  }

  private evalCall(x: Extract<Expr, { e: 'call' }>, scope: Scope, imports: Map<string, string>, pkg: Pkg): unknown {
    const ev = (y: Expr) => this.eval(y, scope, imports, pkg);
    // Builtins.
    if (x.fn.e === 'ident' && !scope.lookup(x.fn.name) && !pkg.funcs.has(x.fn.name)) {
      switch (x.fn.name) {
        case 'append': {
          const base = ev(x.args[0]!);
          const out = base instanceof GoSlice ? new GoSlice([...base.items], [...base.units]) : new GoSlice();
          if (x.spread) {
            const more = ev(x.args[1]!);
            if (more instanceof GoSlice) { out.items.push(...more.items); out.units.push(...more.units); }
            else if (typeof more === 'string') for (const ch of Buffer.from(more)) { out.items.push(ch); out.units.push(null); }
            return out;
          }
          for (const a of x.args.slice(1)) {
            const before = this.opts.newSecretCalls();
            const v = ev(a);
            out.items.push(v);
            out.units.push(typeof v === 'string' ? this.newUnit(this.opts.newSecretCalls() !== before || this.opts.holdsGenerated(v)) : null);
          }
          return out;
        }
        case 'len': {
          const v = ev(x.args[0]!);
          if (typeof v === 'string') return Buffer.byteLength(v);
          if (v instanceof GoSlice) return v.items.length;
          if (v instanceof GoMap) return v.m.size;
          if (v instanceof GoBytes) return v.b.length;
          return 0;
        }
        case 'make': {
          const t = x.args[0]!.e === 'typeExpr' ? (x.args[0] as { type: Type }).type : null;
          if (t?.t === 'map') return new GoMap();
          const n = x.args[1] ? (ev(x.args[1]) as number) : 0;
          return new GoSlice(Array.from({ length: n }, () => zero(t?.t === 'slice' ? t.elem : null)), Array.from({ length: n }, () => null));
        }
        case 'string': {
          const v = ev(x.args[0]!);
          return v instanceof GoBytes ? v.b.toString('utf8') : typeof v === 'number' ? String.fromCodePoint(v) : v;
        }
        default: break;
      }
    }
    const before = this.opts.newSecretCalls();
    const fn = ev(x.fn);
    if (isType(fn)) return convert(fn, ev(x.args[0]!));
    const args: unknown[] = [];
    for (let i = 0; i < x.args.length; i++) {
      const v = ev(x.args[i]!);
      if (x.spread && i === x.args.length - 1 && v instanceof GoSlice) args.push(...v.items);
      else if (v instanceof Multi && x.args.length === 1) args.push(...v.values);
      else args.push(v);
    }
    const qualified = x.fn.e === 'sel' && x.fn.x.e === 'ident' ? `${x.fn.x.name}.${x.fn.name}` : '';
    let result: unknown;
    try {
      result = this.invoke(fn, args, qualified || 'call');
    } catch (err) {
      (err as Error).message = `${(err as Error).message} (line ${x.line})`;
      throw err;
    }
    if (this.opts.unitFunctions.has(qualified) && result instanceof GoSlice) {
      const unit = this.newUnit(this.opts.newSecretCalls() !== before || result.items.some((v) => typeof v === 'string' && this.opts.holdsGenerated(v)));
      return new GoSlice(result.items, result.items.map(() => unit));
    }
    return result;
  }
}

function isType(v: unknown): v is Type {
  return typeof v === 'object' && v !== null && 't' in v && typeof (v as { t: unknown }).t === 'string' && !(v instanceof GoStruct);
}

function convert(type: Type, v: unknown): unknown {
  if (type.t === 'slice' && type.elem.t === 'name' && type.elem.name === 'byte') return new GoBytes(Buffer.from(v as string, 'utf8'));
  if (type.t === 'name' && type.name === 'string') return v instanceof GoBytes ? v.b.toString('utf8') : typeof v === 'number' ? String.fromCodePoint(v) : v;
  return v;
}

function zero(type: Type | null): unknown {
  if (!type) return null;
  if (type.t === 'slice') return new GoSlice();
  if (type.t === 'name') {
    if (type.name === 'string') return '';
    if (['int', 'int64', 'float64', 'byte', 'rune', 'uint8'].includes(type.name)) return 0;
    if (type.name === 'bool') return false;
    if (type.pkg === 'strings' && type.name === 'Builder') return new StringsBuilder();
  }
  return null;
}

function truthy(v: unknown): boolean {
  if (typeof v !== 'boolean') throw new Error(`not a boolean: ${String(v)}`);
  return v;
}

function binary(op: string, l: unknown, r: unknown): unknown {
  switch (op) {
    case '+': return (l as number) + (r as number);
    case '-': return (l as number) - (r as number);
    case '*': return (l as number) * (r as number);
    case '/': return typeof l === 'number' && Number.isInteger(l) && Number.isInteger(r) ? Math.trunc(l / (r as number)) : (l as number) / (r as number);
    case '%': return (l as number) % (r as number);
    case '==': return l === r;
    case '!=': return l !== r;
    case '<': return (l as number) < (r as number);
    case '<=': return (l as number) <= (r as number);
    case '>': return (l as number) > (r as number);
    case '>=': return (l as number) >= (r as number);
    default: throw new Error(`unsupported operator ${op}`);
  }
}

/** `x.name` on a value: struct fields, and methods of the native values. */
function member(obj: unknown, name: string): unknown {
  if (obj instanceof GoStruct) return obj.fields[name] ?? null;
  if (obj && typeof obj === 'object' && name in obj) {
    const v = (obj as Record<string, unknown>)[name];
    return typeof v === 'function' ? (v as Native).bind(obj) : v;
  }
  throw new Error(`no member ${name}`);
}

// ---------------------------------------------------------------- standard library pieces

export class StringsBuilder {
  private s = '';
  WriteString(x: string): Multi { this.s += x; return new Multi([Buffer.byteLength(x), null]); }
  String(): string { return this.s; }
}

/** Go's `fmt.Sprintf` for the verbs the sources use (%s, %d, %v, %q, %%). */
export function sprintf(format: string, ...args: unknown[]): string {
  let i = 0;
  return format.replace(/%([-+# 0]*\d*(?:\.\d+)?)([sdvqx%])/g, (_m, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    const a = args[i++];
    if (verb === 'q') return JSON.stringify(String(a));
    if (verb === 'x') return typeof a === 'number' ? a.toString(16) : Buffer.from(String(a)).toString('hex');
    if (a instanceof GoBytes) return a.b.toString('utf8');
    return String(a);
  });
}

function base64Encoding(kind: 'base64' | 'base64url', pad: boolean) {
  return {
    EncodeToString(b: unknown): string {
      const buf = b instanceof GoBytes ? b.b : Buffer.from(String(b));
      const s = buf.toString(kind);
      if (kind === 'base64url') return pad ? s + '='.repeat((4 - (s.length % 4)) % 4) : s;
      return pad ? s : s.replace(/=+$/, '');
    },
  };
}

/** Natives for the standard library packages the sources import. */
export const STDLIB: Readonly<Record<string, PackageSpec>> = {
  fmt: { files: [], natives: { Sprintf: sprintf } },
  strings: {
    files: [],
    natives: {
      Join: (s: GoSlice, sep: string) => (s?.items ?? []).join(sep),
      ToUpper: (s: string) => s.toUpperCase(),
      ToLower: (s: string) => s.toLowerCase(),
      Contains: (s: string, sub: string) => s.includes(sub),
      Repeat: (s: string, n: number) => s.repeat(n),
      ReplaceAll: (s: string, a: string, b: string) => s.split(a).join(b),
      TrimSpace: (s: string) => s.trim(),
      NewReplacer: (...pairs: string[]) => ({
        Replace(s: string): string {
          // Go's generic replacer: at each position the first pair (in argument order) whose old string matches.
          let out = '';
          for (let i = 0; i < s.length;) {
            let hit = -1;
            for (let k = 0; k < pairs.length; k += 2) if (pairs[k]!.length > 0 && s.startsWith(pairs[k]!, i)) { hit = k; break; }
            if (hit < 0) { out += s[i]; i++; } else { out += pairs[hit + 1]; i += pairs[hit]!.length; }
          }
          return out;
        },
      }),
    },
  },
  'encoding/base64': {
    files: [],
    natives: {
      StdEncoding: base64Encoding('base64', true), RawStdEncoding: base64Encoding('base64', false),
      URLEncoding: base64Encoding('base64url', true), RawURLEncoding: base64Encoding('base64url', false),
    },
  },
};
