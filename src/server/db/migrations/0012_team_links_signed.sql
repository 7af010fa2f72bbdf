-- A team's join link is a signed token (order-tokens.ts: the link's id and an HMAC over it): the link row is found
-- by its id and revoked there. The hash of the token stored beside it was never read; it goes.
DROP INDEX IF EXISTS "team_links_token_hash_key";
ALTER TABLE "team_links" DROP COLUMN "token_hash";
