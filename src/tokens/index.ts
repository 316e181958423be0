export { substituteTokens, substituteObject, unmatchedTokensOutput, TOKEN, type Substituted } from './substitute.js';
export { rubyToS, rubyInspect } from './render.js';
export { renderGoTemplate, substituteGoTemplates, type TemplateOutcome } from './go-template.js';
