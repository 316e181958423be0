// Handler resolution lives in a pure module so compiling needs no runtime.
export { EXTENSION_HANDLERS, handlerNames, resolveHandlers, type Handler, type Resolution } from '../../handling-rules/handler-sets.js';
