// TLS options, server identity checks and trust stores. What other folders may use of it.
export { httpsOption, type ListenerHttps } from './https-option.js';
export { checkServerIdentity, connectFailureText } from './identity.js';
export { systemCas } from './system-cas.js';
export { trustedCas } from './trust-store.js';
