// The agent renders every string of a check (and hook) as a Go text/template with Sensu's `default` function
// before it runs; one that does not parse fails the check. This is the parser's grammar, enough to refuse what Go refuses.

const FUNCTIONS = new Set([
  'and',
  'call',
  'html',
  'index',
  'slice',
  'js',
  'len',
  'not',
  'or',
  'print',
  'printf',
  'println',
  'urlquery',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
  'default',
]);
const OPENERS = new Set(['if', 'range', 'with', 'define', 'block']);

/** Literal text as template text that renders to itself: only `{{` needs escaping. */
export function escapeTemplateText(text: string): string {
  return text.replaceAll('{{', '{{"{{"}}');
}

type Token = { kind: 'field' | 'var' | 'ident' | 'string' | 'number' | 'op'; text: string };

function lexAction(action: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < action.length) {
    const rest = action.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const match = /^"(?:[^"\\\n]|\\.)*"/.exec(rest) ?? /^`[^`]*`/.exec(rest) ?? /^'(?:[^'\\\n]|\\.)'/.exec(rest);
    if (match) {
      tokens.push({ kind: 'string', text: match[0] });
      i += match[0].length;
      continue;
    }
    if (rest[0] === '"' || rest[0] === '`' || rest[0] === "'") return 'unterminated quoted string';
    const field = /^(\.[A-Za-z_][A-Za-z0-9_]*)+|^\.(?![\w.])/.exec(rest);
    if (field) {
      tokens.push({ kind: 'field', text: field[0] });
      i += field[0].length;
      continue;
    }
    if (rest[0] === '.') return `bad character in field name: ${rest.slice(0, 12)}`;
    const variable = /^\$[A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
    if (variable) {
      tokens.push({ kind: 'var', text: variable[0] });
      i += variable[0].length;
      continue;
    }
    const num = /^[+-]?(0x[0-9a-fA-F_]+|\d[\d_]*(\.\d*)?([eE][+-]?\d+)?|\.\d+)(?![\w.])/.exec(rest);
    if (num) {
      tokens.push({ kind: 'number', text: num[0] });
      i += num[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0] });
      i += ident[0].length;
      continue;
    }
    const op = /^(:=|=|\||\(|\)|,)/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', text: op[0] });
      i += op[0].length;
      continue;
    }
    return `unexpected ${JSON.stringify(rest[0])} in command`;
  }
  return tokens;
}

// A pipeline: commands separated by `|`, each a list of operands, with balanced parentheses.
function pipelineProblem(tokens: Token[], declared: Set<string>): string | null {
  let depth = 0;
  let operands = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'op' && (t.text === ':=' || t.text === '=')) {
      if (i === 0 || tokens[i - 1]!.kind !== 'var') return `unexpected "${t.text}"`;
      continue;
    }
    if (t.kind === 'op' && t.text === '(') depth++;
    else if (t.kind === 'op' && t.text === ')') {
      if (--depth < 0) return 'unexpected right paren';
    } else if (t.kind === 'op' && t.text === '|') {
      if (operands === 0) return 'missing value for command';
      operands = 0;
      continue;
    } else if (t.kind === 'op' && t.text === ',') continue;
    else if (t.kind === 'ident' && !['true', 'false', 'nil'].includes(t.text) && !FUNCTIONS.has(t.text)) return `function "${t.text}" not defined`;
    else if (t.kind === 'var') {
      const name = t.text.split('.')[0]!;
      const next = tokens[i + 1];
      // `range $i, $v := ...` declares both.
      const pair = next?.kind === 'op' && next.text === ',' && tokens[i + 2]?.kind === 'var' && tokens[i + 3]?.text === ':=';
      if (pair || (next?.kind === 'op' && (next.text === ':=' || next.text === '='))) declared.add(name);
      else if (!declared.has(name)) return `undefined variable "${name}"`;
    }
    operands++;
  }
  if (depth > 0) return 'unclosed left paren';
  if (operands === 0) return 'missing value for command';
  return null;
}

/** Why Go's text/template parser (with Sensu's functions) refuses `text`, or null. */
export function goTemplateProblem(text: string): string | null {
  const stack: string[] = [];
  const declared = new Set(['$']);
  let i = 0;
  for (;;) {
    const open = text.indexOf('{{', i);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) return 'unclosed action';
    let inner = text.slice(open + 2, close);
    // A quoted `}}` does not close the action.
    let end = close;
    while (/^(?:[^"`]|"(?:[^"\\]|\\.)*"|`[^`]*`)*("(?:[^"\\]|\\.)*|`[^`]*)$/.test(inner)) {
      end = text.indexOf('}}', end + 2);
      if (end < 0) return 'unclosed action';
      inner = text.slice(open + 2, end);
    }
    i = end + 2;
    if (/^-\s/.test(inner)) inner = inner.slice(1);
    if (/\s-$/.test(inner)) inner = inner.slice(0, -1);
    const trimmed = inner.trim();
    if (trimmed.startsWith('/*')) {
      if (!trimmed.endsWith('*/')) return 'comment ends before closing delimiter';
      continue;
    }
    const tokens = lexAction(inner);
    if (typeof tokens === 'string') return tokens;
    if (tokens.length === 0) return 'missing value for command';
    const head = tokens[0]!;
    const keyword = head.kind === 'ident' ? head.text : '';
    if (keyword === 'end') {
      if (tokens.length > 1) return 'unexpected token after end';
      if (!stack.pop()) return 'unexpected {{end}}';
    } else if (keyword === 'else') {
      const top = stack.at(-1);
      if (top !== 'if' && top !== 'with' && top !== 'range') return 'unexpected {{else}}';
      if (tokens.length > 1) {
        const chained = tokens[1]!;
        if (chained.kind !== 'ident' || (chained.text !== 'if' && chained.text !== 'with')) return 'unexpected token after else';
        const problem = pipelineProblem(tokens.slice(2), declared);
        if (problem) return problem;
      }
    } else if (keyword === 'break' || keyword === 'continue') {
      if (!stack.includes('range')) return `{{${keyword}}} outside {{range}}`;
    } else if (keyword === 'define' || keyword === 'template' || keyword === 'block') {
      if (tokens[1]?.kind !== 'string') return `missing name in ${keyword} clause`;
      if (keyword !== 'define' && tokens.length > 2) {
        const problem = pipelineProblem(tokens.slice(2), declared);
        if (problem) return problem;
      }
      if (keyword !== 'template') stack.push(keyword);
    } else if (OPENERS.has(keyword)) {
      const problem = pipelineProblem(tokens.slice(1), declared);
      if (problem) return problem;
      stack.push(keyword);
    } else {
      const problem = pipelineProblem(tokens, declared);
      if (problem) return problem;
    }
  }
  if (stack.length > 0) return `unexpected EOF (an unclosed {{${stack.at(-1)}}})`;
  return null;
}
