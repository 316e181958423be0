import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { SignJWT, jwtVerify, decodeJwt, errors } from 'jose';

const ACCESS_TTL_S = 5 * 60;
const REFRESH_TTL_S = 12 * 60 * 60;

export interface Claims {
  readonly sub: string;
  readonly groups: string[];
  readonly session_id: string;
  readonly exp: number;
  readonly kind: 'access' | 'refresh';
  readonly jti: string;
}

export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_at: number;
  readonly refresh_id: string;
}

export const newSigningKey = () => randomBytes(32).toString('base64');
/** API keys are random UUIDs (122 bits): a fast hash is enough, and only the hash is stored. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** HS256 JWTs: a short access token and a longer refresh token bound to one session. */
export class TokenIssuer {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'base64');
  }

  async issue(username: string, groups: string[], sessionId: string, nowS: number): Promise<TokenPair> {
    const sign = (kind: 'access' | 'refresh', ttl: number, jti: string) =>
      new SignJWT({ groups, session_id: sessionId, kind })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(username)
        .setJti(jti)
        .setIssuedAt(nowS)
        .setExpirationTime(nowS + ttl)
        .sign(this.key);
    const refreshId = randomUUID();
    return {
      access_token: await sign('access', ACCESS_TTL_S, randomUUID()),
      refresh_token: await sign('refresh', REFRESH_TTL_S, refreshId),
      expires_at: nowS + ACCESS_TTL_S,
      refresh_id: refreshId,
    };
  }

  /** Verifies signature and kind; expiry is checked unless `allowExpired` (refresh accepts an expired access token). */
  async verify(token: string, kind: Claims['kind'], options: { allowExpired?: boolean; nowS: number }): Promise<Claims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: new Date(options.nowS * 1000) });
      return payload.kind === kind ? (payload as unknown as Claims) : null;
    } catch (error) {
      if (options.allowExpired && error instanceof errors.JWTExpired) {
        const payload = decodeJwt(token);
        return payload.kind === kind ? (payload as unknown as Claims) : null;
      }
      return null;
    }
  }
}
