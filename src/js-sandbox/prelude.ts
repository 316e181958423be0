// The JavaScript run inside each fresh sandbox context before an expression: Sensu Go's helper functions and the
// scope, all from data. It is source text for QuickJS, never run in Node. Sensu Go (js/js.go) defines the time
// helpers over Go's time.Unix(toInt64(ts), 0).UTC(): a number truncated toward zero, anything else 0, no argument 0.

const OPEN = `(function (global, input) {
  'use strict';
  var data = JSON.parse(input);
  var now = data.now, self = data.self, deps = data.deps, scope = data.scope;
  var floor = Math.floor, finite = isFinite, isArray = Array.isArray;
  var owns = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
  var SandboxError = Error, SandboxTypeError = TypeError;
  var needs = '', asked = 0;
  // Otto has no Promise; QuickJS keeps it inside (async functions), jobs never run.
  delete global.Promise;
`;

const TIME_HELPERS = `
  function seconds(value) {
    return typeof value === 'number' && finite(value) ? (value < 0 ? -floor(-value) : floor(value)) : 0;
  }
  function modulo(value, size) {
    var rest = value % size;
    return rest < 0 ? rest + size : rest;
  }
  function timeHelper(of) {
    return function (timestamp) {
      return arguments.length === 0 ? 0 : of(seconds(timestamp));
    };
  }
  global.seconds_since = function (timestamp) {
    return arguments.length === 0 ? 0 : (now - seconds(timestamp) * 1000) / 1000;
  };
  global.second = timeHelper(function (s) { return modulo(s, 60); });
  global.minute = timeHelper(function (s) { return floor(modulo(s, 3600) / 60); });
  global.hour = timeHelper(function (s) { return floor(modulo(s, 86400) / 3600); });
  // 1970-01-01 was a Thursday (4); Sunday is 0.
  global.weekday = timeHelper(function (s) { return modulo(floor(s / 86400) + 4, 7); });
`;

// Strings are checks of the event's own entity; objects name both; arrays hold either. All passing: true; one
// failing: false; none asked: true; a check with no event: an error (as Sensu Go documents it).
const CHECK_DEPENDENCIES = `
  function reference(value, into) {
    if (typeof value === 'string') into[into.length] = [self, value];
    else if (value !== null && typeof value === 'object' && typeof value.check === 'string') into[into.length] = [typeof value.entity === 'string' ? value.entity : self, value.check];
    else throw new SandboxTypeError('sensu.CheckDependencies: a check is a name or {entity, check}');
  }
  function checkDependencies() {
    var refs = [], i, j, unknown = false, missing = null, passing = true;
    for (i = 0; i < arguments.length; i++) {
      if (isArray(arguments[i])) for (j = 0; j < arguments[i].length; j++) reference(arguments[i][j], refs);
      else reference(arguments[i], refs);
    }
    for (i = 0; i < refs.length; i++) {
      var key = refs[i][0] + '\\u001f' + refs[i][1];
      // Names are at most 255 characters: a longer one has no event, and is not worth asking for.
      if (refs[i][0].length > 255 || refs[i][1].length > 255) {
        if (missing === null) missing = refs[i];
      } else if (!owns(deps, key)) {
        unknown = true;
        if (asked < 64) { needs += key + '\\u001e'; asked++; }
      } else if (deps[key] === null) {
        if (missing === null) missing = refs[i];
      } else if (deps[key] !== 0) passing = false;
    }
    // The host reads the other events' states between two runs: this run stops here, the next one has them.
    if (unknown) throw new SandboxError('sensu.CheckDependencies: the dependencies are being read');
    if (missing !== null) throw new SandboxError('sensu.CheckDependencies: no event for check ' + missing[1].slice(0, 255) + ' on entity ' + missing[0].slice(0, 255));
    return passing;
  }
  global.sensu = { CheckDependencies: checkDependencies };
`;

const CLOSE = `
  for (var name in scope) if (owns(scope, name)) global[name] = scope[name];
  return function report() { return needs; };
})`;

// Compiling the helpers costs more than most expressions: they are defined when the text names them, or could
// reach them by a computed name (through the global object or code made at run time).
const DYNAMIC = /eval|Function|constructor|this|globalThis/;
const TIME_NAMES = /second|minute|hour|weekday/;
const SENSU_NAMES = /sensu/;

const variants = new Map<number, string>();

/**
 * A function expression `(global, input) => report`: `input` is JSON `{scope, now, self, deps}`; it defines the
 * scope's names and the helpers the expression may use (`hour`, `weekday`, `minute`, `second`, `seconds_since`,
 * `sensu.CheckDependencies`) as globals, and returns `report()`: the dependency keys (`entity\x1fcheck`, each ended
 * by `\x1e`) the expression asked for but `deps` did not hold. It uses only intrinsics captured before the
 * expression runs, so the expression cannot redirect what it reports.
 */
export function preludeFor(expression: string): string {
  const dynamic = DYNAMIC.test(expression);
  const key = (dynamic || TIME_NAMES.test(expression) ? 1 : 0) + (dynamic || SENSU_NAMES.test(expression) ? 2 : 0);
  let source = variants.get(key);
  if (source === undefined) {
    source = OPEN + (key & 1 ? TIME_HELPERS : '') + (key & 2 ? CHECK_DEPENDENCIES : '') + CLOSE;
    variants.set(key, source);
  }
  return source;
}
