// Staff accounts and sessions, decided on the server (docs/rules.md §5).
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditLog, staffSessions, staffUsers } from '../../db/schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { hashPassword, verifyPassword, MIN_PASSWORD_LENGTH } from './passwords.js';
import type { StaffUser } from '../../../domain/staff-api.js';

export const SESSION = {
  cookie: 'staff_session',
  /** Signed out after this long without a request. */
  idleMs: 2 * 3600 * 1000,
  /** Signed out this long after signing in, whatever happens. */
  absoluteMs: 12 * 3600 * 1000,
} as const;

/** Failed sign-ins before a temporary lockout, per account name and per address. */
export const LOGIN_LIMITS = {
  perAccount: { attempts: 5, windowMs: 15 * 60 * 1000 },
  perAddress: { attempts: 20, windowMs: 15 * 60 * 1000 },
} as const;

/** A staff account as sessions and the back office name it. */
export type StaffIdentity = StaffUser;

export interface ActiveSession {
  staff: StaffIdentity;
  csrfToken: string;
  tokenHash: string;
}

export class StaffAccountError extends Error {}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function createAuthService(deps: { db: Database; now: () => Date }) {
  const { db } = deps;
  const limiter = createRateLimiter(db, deps.now);

  async function createSession(staff: StaffIdentity, meta: { ip: string; userAgent: string | undefined }) {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const now = deps.now();
    await db.insert(staffSessions).values({
      tokenHash: hashToken(token),
      staffUserId: staff.id,
      csrfToken,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION.absoluteMs),
    });
    return { token, csrfToken };
  }

  return {
    async createStaff(input: { email: string; password: string; name?: string | null; role?: 'staff' | 'admin' }): Promise<StaffIdentity> {
      const email = normalizeEmail(input.email);
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new StaffAccountError('the e-mail address is not valid');
      if (input.password.length < MIN_PASSWORD_LENGTH) throw new StaffAccountError(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
      const [existing] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, email));
      if (existing) throw new StaffAccountError(`a staff account for ${email} exists already`);
      const id = randomUUID();
      await db.insert(staffUsers).values({ id, email, name: input.name ?? null, passwordHash: await hashPassword(input.password), role: input.role ?? 'admin' });
      return { id, email, name: input.name ?? null };
    },

    async staffCount(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)` }).from(staffUsers);
      return Number(row?.n ?? 0);
    },

    /**
     * Signs in. Every failure looks the same ('invalidCredentials'), and a lockout ('tooManyAttempts')
     * engages the same way whether the account exists or not.
     */
    async login(input: { email: string; password: string; ip: string; userAgent: string | undefined; previousToken?: string }) {
      const email = normalizeEmail(input.email);
      const accountKey = `login:account:${email}`;
      const addressKey = `login:ip:${input.ip}`;
      const account = await limiter.hit(accountKey, LOGIN_LIMITS.perAccount.attempts, LOGIN_LIMITS.perAccount.windowMs);
      const address = await limiter.hit(addressKey, LOGIN_LIMITS.perAddress.attempts, LOGIN_LIMITS.perAddress.windowMs);
      if (!account.allowed || !address.allowed) {
        const resetAt = !account.allowed ? account.resetAt : address.resetAt;
        return { ok: false as const, code: 'tooManyAttempts' as const, retryAfterSeconds: Math.ceil((resetAt.getTime() - deps.now().getTime()) / 1000) };
      }
      const [user] = await db.select().from(staffUsers).where(eq(staffUsers.email, email));
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid) {
        if (user) await db.update(staffUsers).set({ failedLogins: sql`${staffUsers.failedLogins} + 1` }).where(eq(staffUsers.id, user.id));
        return { ok: false as const, code: 'invalidCredentials' as const };
      }
      await limiter.reset(accountKey, addressKey);
      // A session presented at sign-in is ended: the new one gets a new token (no session fixation).
      if (input.previousToken) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(input.previousToken)));
      await db.update(staffUsers).set({ failedLogins: 0, lastLoginAt: deps.now() }).where(eq(staffUsers.id, user.id));
      const staff = { id: user.id, email: user.email, name: user.name };
      const session = await createSession(staff, { ip: input.ip, userAgent: input.userAgent });
      await db.insert(auditLog).values({ actorType: 'staff', staffUserId: user.id, action: 'staff.login', ip: input.ip, createdAt: deps.now() });
      return { ok: true as const, staff, ...session };
    },

    /**
     * A sign-in refused before it could be checked (an e-mail with control characters, a missing field): it
     * counts against the address like a wrong password, so malformed attempts buy no extra tries. The refused
     * value itself never reaches the database.
     */
    async countRefusedLogin(ip: string): Promise<{ retryAfterSeconds: number } | null> {
      const address = await limiter.hit(`login:ip:${ip}`, LOGIN_LIMITS.perAddress.attempts, LOGIN_LIMITS.perAddress.windowMs);
      return address.allowed ? null : { retryAfterSeconds: Math.ceil((address.resetAt.getTime() - deps.now().getTime()) / 1000) };
    },

    /** The session behind a cookie token, if it is neither idle too long nor too old. */
    async session(token: string | undefined): Promise<ActiveSession | null> {
      if (!token || token.length > 100) return null;
      const now = deps.now();
      const tokenHash = hashToken(token);
      const [row] = await db
        .select({ session: staffSessions, staff: { id: staffUsers.id, email: staffUsers.email, name: staffUsers.name } })
        .from(staffSessions)
        .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
        .where(and(eq(staffSessions.tokenHash, tokenHash), gt(staffSessions.expiresAt, now), gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION.idleMs))));
      if (!row) return null;
      // Keep the idle clock running without a write on every request.
      if (now.getTime() - row.session.lastSeenAt.getTime() > 60_000) {
        await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.tokenHash, tokenHash));
      }
      return { staff: row.staff, csrfToken: row.session.csrfToken, tokenHash };
    },

    async logout(token: string | undefined) {
      if (token) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)));
    },

    async pruneSessions() {
      await db.delete(staffSessions).where(lt(staffSessions.expiresAt, deps.now()));
    },
  };
}

export function csrfMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

export type AuthService = ReturnType<typeof createAuthService>;
