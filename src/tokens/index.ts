export { substituteTokens, substituteObject, unmatchedTokensOutput, type Substituted } from './substitute.js';
export { rubyToS, rubyInspect } from './render.js';
