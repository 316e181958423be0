// The Ruby subset of legacy `eval:` attributes found in real configurations: parsed into a tree, never handed to any eval.

export type Node =
  | { kind: 'literal'; value: unknown }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'array'; items: Node[] }
  | { kind: 'var'; name: string }
  | { kind: 'not'; operand: Node }
  | { kind: 'neg'; operand: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'index'; target: Node; index: Node }
  | { kind: 'call'; target: Node; method: string; args: Node[]; block: { param: string; body: Node } | null };

type Token = { type: 'num' | 'str' | 'regex' | 'id' | 'op' | 'end'; text: string; value?: unknown; flags?: string; at: number };

export class ExpressionError extends Error {}

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '=~', '!~', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', '[', ']', ',', '.', '{', '}', '|'];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', s: ' ', e: '\x1b' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  // A `/` starts a regex where an operand is expected, and divides after one.
  const operandExpected = () => {
    const last = tokens.at(-1);
    return !last || (last.type === 'op' && ![')', ']', '}'].includes(last.text)) || (last.type === 'id' && ['and', 'or', 'not'].includes(last.text));
  };
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    const number = /^\d[\d_]*(\.\d+)?/.exec(source.slice(i));
    if (number) {
      tokens.push({ type: 'num', text: number[0], value: Number(number[0].replaceAll('_', '')), at });
      i += number[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let text = '';
      i++;
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\' && i + 1 < source.length) {
          const next = source[i + 1]!;
          text += c === '"' ? (ESCAPES[next] ?? next) : next === "'" || next === '\\' ? next : '\\' + next;
          i += 2;
          continue;
        }
        if (c === '"' && source.startsWith('#{', i)) throw new ExpressionError(`string interpolation is not supported (at ${i})`);
        text += source[i++];
      }
      if (source[i] !== c) throw new ExpressionError(`unterminated string starting at ${at}`);
      i++;
      tokens.push({ type: 'str', text, value: text, at });
      continue;
    }
    if (c === '/' && operandExpected()) {
      let body = '';
      i++;
      while (i < source.length && source[i] !== '/') {
        if (source[i] === '\\' && i + 1 < source.length) body += source[i++];
        body += source[i++];
      }
      if (source[i] !== '/') throw new ExpressionError(`unterminated regular expression starting at ${at}`);
      i++;
      const flags = /^[imx]*/.exec(source.slice(i))![0];
      i += flags.length;
      tokens.push({ type: 'regex', text: body, flags, at });
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*[?!]?/.exec(source.slice(i));
    if (word) {
      // `value!= 1`: a trailing `!` followed by `=` is an operator, not part of the name.
      let text = word[0];
      if (text.endsWith('!') && source[i + text.length] === '=') text = text.slice(0, -1);
      tokens.push({ type: 'id', text, at });
      i += text.length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected character '${c}' at ${i}`);
    tokens.push({ type: 'op', text: op, at });
    i += op.length;
  }
  tokens.push({ type: 'end', text: '', at: source.length });
  return tokens;
}

const BINARY: Record<string, number> = {
  or: 1,
  and: 1,
  '||': 2,
  '&&': 3,
  '==': 5,
  '!=': 5,
  '=~': 5,
  '!~': 5,
  '<': 6,
  '<=': 6,
  '>': 6,
  '>=': 6,
  '+': 7,
  '-': 7,
  '*': 8,
  '/': 8,
  '%': 8,
};

class Parser {
  private pos = 0;
  private readonly locals = new Set<string>(['value']);
  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.expression(0);
    if (this.peek().type !== 'end') throw this.unexpected();
    return node;
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    return this.tokens[this.pos++]!;
  }

  private unexpected(): ExpressionError {
    const token = this.peek();
    return new ExpressionError(token.type === 'end' ? 'unexpected end of expression' : `unexpected '${token.text}' at ${token.at}`);
  }

  private accept(text: string): boolean {
    const token = this.peek();
    if ((token.type === 'op' || token.type === 'id') && token.text === text) {
      this.pos++;
      return true;
    }
    return false;
  }

  private expect(text: string): void {
    if (!this.accept(text)) throw this.unexpected();
  }

  private expression(minPrecedence: number): Node {
    let left = this.unary();
    for (;;) {
      const token = this.peek();
      const precedence = token.type === 'op' || token.type === 'id' ? BINARY[token.text] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      this.pos++;
      const right = this.expression(precedence + 1);
      const op = token.text === 'and' ? '&&' : token.text === 'or' ? '||' : token.text;
      left = { kind: 'binary', op, left, right };
    }
  }

  private unary(): Node {
    if (this.accept('!')) return { kind: 'not', operand: this.unary() };
    if (this.accept('not')) return { kind: 'not', operand: this.expression(4) };
    if (this.accept('-')) return { kind: 'neg', operand: this.unary() };
    return this.postfix(this.primary());
  }

  private postfix(node: Node): Node {
    for (;;) {
      if (this.accept('[')) {
        const index = this.expression(0);
        this.expect(']');
        node = { kind: 'index', target: node, index };
      } else if (this.accept('.')) {
        const name = this.next();
        if (name.type !== 'id') throw new ExpressionError(`expected a method name at ${name.at}`);
        const args: Node[] = [];
        if (this.accept('(')) {
          if (!this.accept(')')) {
            do args.push(this.expression(0));
            while (this.accept(','));
            this.expect(')');
          }
        }
        let block: { param: string; body: Node } | null = null;
        if (this.accept('{')) {
          this.expect('|');
          const param = this.next();
          if (param.type !== 'id') throw new ExpressionError(`expected a block parameter at ${param.at}`);
          this.expect('|');
          this.locals.add(param.text);
          block = { param: param.text, body: this.expression(0) };
          this.expect('}');
        }
        node = { kind: 'call', target: node, method: name.text, args, block };
      } else {
        return node;
      }
    }
  }

  private primary(): Node {
    const token = this.next();
    switch (token.type) {
      case 'num':
      case 'str':
        return { kind: 'literal', value: token.value };
      case 'regex':
        return { kind: 'regex', source: token.text, flags: token.flags ?? '' };
      case 'id':
        if (token.text === 'nil') return { kind: 'literal', value: null };
        if (token.text === 'true' || token.text === 'false') return { kind: 'literal', value: token.text === 'true' };
        if (this.locals.has(token.text)) return { kind: 'var', name: token.text };
        throw new ExpressionError(`unknown name '${token.text}' at ${token.at}: only value (and block parameters) can be read`);
      case 'op':
        if (token.text === '(') {
          const inner = this.expression(0);
          this.expect(')');
          return inner;
        }
        if (token.text === '[') {
          const items: Node[] = [];
          if (!this.accept(']')) {
            do items.push(this.expression(0));
            while (this.accept(','));
            this.expect(']');
          }
          return { kind: 'array', items };
        }
    }
    this.pos--;
    throw this.unexpected();
  }
}

/** Parses one expression; throws ExpressionError naming what is outside the subset. */
export function parseExpression(source: string): Node {
  return new Parser(tokenize(source)).parse();
}
