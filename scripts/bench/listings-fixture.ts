/**
 * A marketplace of generated listings for the benchmarks: `fillListings` writes rows straight into
 * a schema's listings read model (migrating the read models there first if they are missing), as
 * the projection would have written them, so that the listing queries run at a realistic size.
 *
 * The rows are made in SQL (INSERT ... SELECT generate_series) and look like a marketplace that has
 * run for two years: 60% LIVE, 20% SOLD, 10% UNSOLD, the rest drafts, saved, NFC-bound and
 * withdrawn; clothing the commonest category; a fifth signed or autographed; 400 players on 48
 * teams in the searched text; prices on whole dollars (so many ties); live auctions ending within
 * two weeks, a few live listings without an auction. Ids start with `bench-listing-`.
 */
import pg from 'pg';
import { createKysely } from '../../engine/postgres/kysely-dialect';
import { NodePostgresClient } from '../../engine/postgres/sql-client';
import { migrateReadModels } from '../../projections';

/** Each value's share of the rows, in percent. */
const STATUS_SHARES = [
  ['LIVE', 60],
  ['SOLD', 20],
  ['UNSOLD', 10],
  ['DRAFT', 4],
  ['SAVED', 3],
  ['NFC_BOUND', 1],
  ['WITHDRAWN', 2],
] as const;
const CATEGORY_SHARES = [
  ['CLOTHING', 45],
  ['EQUIPMENT', 25],
  ['FOOTWEAR', 15],
  ['ACCESSORIES', 15],
] as const;

const FIRST_NAMES = ['james', 'michael', 'lionel', 'cristiano', 'tom', 'derek', 'kobe', 'lebron', 'serena', 'wayne', 'babe', 'mia', 'peyton', 'diego', 'stephen', 'kevin', 'david', 'pele', 'kylian', 'shohei'];
const LAST_NAMES = ['jordan', 'messi', 'ronaldo', 'brady', 'jeter', 'bryant', 'james', 'williams', 'gretzky', 'ruth', 'hamm', 'manning', 'maradona', 'curry', 'durant', 'beckham', 'silva', 'mbappe', 'ohtani', 'rodriguez'];
const TEAMS = Array.from({ length: 48 }, (_, index) => `${['north', 'south', 'east', 'west', 'river', 'city'][index % 6]} ${['united', 'rovers', 'giants', 'hawks', 'lions', 'stars', 'kings', 'rangers'][index % 8]} ${Math.floor(index / 8) + 1}`);
const ITEMS = {
  CLOTHING: ['home jersey', 'away jersey', 'warm-up shirt', 'training jacket'],
  EQUIPMENT: ['game ball', 'bat', 'helmet', 'glove'],
  FOOTWEAR: ['cleats', 'sneakers', 'boots', 'spikes'],
  ACCESSORIES: ['wristband', 'cap', 'captain armband', 'headband'],
} as const;
const SPORTS = ['FOOTBALL', 'BASKETBALL', 'BASEBALL', 'SOCCER'] as const;

const FIRST_CREATED_AT = '2025-01-01T00:00:00.000Z';
const TWO_YEARS_SECONDS = 2 * 365 * 24 * 3600;
const CHUNK = 50_000;

/** A SQL CASE choosing among `shares` by `bucket` (0..99). */
function pickByShare(bucket: string, shares: ReadonlyArray<readonly [string, number]>): string {
  let upTo = 0;
  const branches = shares.map(([value, share]) => {
    upTo += share;
    return `WHEN ${bucket} < ${upTo} THEN '${value}'`;
  });
  return `CASE ${branches.join(' ')} END`;
}

const textArray = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(', ')}]`;

/**
 * One chunk of listings, numbered $1 to $2 - 1; $3 is now. Independent hashes of the row number
 * (hashint8 with different offsets) choose each attribute, so the choices do not move together.
 */
const FILL_CHUNK = `
WITH numbered AS (
  SELECT g,
    (hashint8(g) & 2147483647) % 100 AS status_bucket,
    (hashint8(g + 1000000007) & 2147483647) % 100 AS category_bucket,
    (hashint8(g + 2000000014) & 2147483647) AS player_hash,
    (hashint8(g + 3000000021) & 2147483647) AS price_hash,
    (hashint8(g + 4000000028) & 2147483647) % 100 AS tag_bucket
  FROM generate_series($1::bigint, $2::bigint - 1) AS g
), chosen AS (
  SELECT g, tag_bucket,
    ${pickByShare('status_bucket', STATUS_SHARES)} AS status,
    ${pickByShare('category_bucket', CATEGORY_SHARES)} AS category,
    initcap((${textArray(FIRST_NAMES)})[1 + player_hash % ${FIRST_NAMES.length}] || ' ' ||
      (${textArray(LAST_NAMES)})[1 + (player_hash / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]) AS player,
    initcap((${textArray(TEAMS)})[1 + (player_hash / 400) % ${TEAMS.length}]) AS team,
    (${textArray(SPORTS)})[1 + (player_hash / 400 / ${TEAMS.length}) % ${SPORTS.length}] AS sport,
    -- Whole dollars from $50 to $5,000, cheap lots the commonest.
    (50 + (price_hash % 4951) * (price_hash % 4951) / 4951) * 100 AS price,
    2014 + (price_hash / 4951) % 12 AS season,
    $4::timestamptz + (g * ${TWO_YEARS_SECONDS}::bigint / $5::bigint) * interval '1 second' AS created_at
  FROM numbered
), described AS (
  SELECT *,
    initcap(CASE category
      WHEN 'CLOTHING' THEN (${textArray(ITEMS.CLOTHING)})[1 + g % 4]
      WHEN 'EQUIPMENT' THEN (${textArray(ITEMS.EQUIPMENT)})[1 + g % 4]
      WHEN 'FOOTWEAR' THEN (${textArray(ITEMS.FOOTWEAR)})[1 + g % 4]
      ELSE (${textArray(ITEMS.ACCESSORIES)})[1 + g % 4] END) || ' ' || season AS title,
    'Worn by ' || player || ' for ' || team || ' in the ' || season || ' season; tagged and photographed at the match.' AS description,
    (CASE WHEN tag_bucket < 12 THEN '["SIGNED"' WHEN tag_bucket < 20 THEN '["AUTOGRAPHED"' ELSE '["WORN"' END
      || CASE WHEN tag_bucket % 10 = 3 THEN ', "MVP"]' WHEN tag_bucket % 10 = 7 THEN ', "PLAYOFF_GAME"]' ELSE ']' END)::jsonb AS tags,
    status IN ('LIVE', 'SOLD', 'UNSOLD') AND g % 97 <> 0 AS auctioned
  FROM chosen
)
INSERT INTO listings (id, slug, owner_id, status, title, description, category, condition, sport_type, asking_price, price,
  player_name, team_or_club, league_or_event, date_or_season, size, tags, jersey, media_ids, nfc_uid, auction_id, auction_ends_at,
  search_text, created_at, updated_at)
SELECT 'bench-listing-' || g, 'bench-listing-' || g, 'bench-admin', status, title, description, category, 'GAME_WORN', sport,
  price, price, player, team, NULL, season::text, NULL, tags, NULL, '[]'::jsonb, NULL,
  CASE WHEN auctioned THEN 'bench-auction-' || g END,
  CASE WHEN NOT auctioned THEN NULL
       WHEN status = 'LIVE' THEN $3::timestamptz + ((hashint8(g + 5000000035) & 2147483647) % (14 * 24 * 3600)) * interval '1 second'
       ELSE created_at + interval '7 days' END,
  lower(player || ' ' || team || ' ' || title || ' ' || description),
  created_at, created_at
FROM described`;

/**
 * Adds `count` generated listings to the listings read model in `schema` (created and migrated
 * when missing), then analyses the table so that plans are made on the new figures. Rows already
 * there stay; calling it again with the same count fails on the ids it already wrote.
 */
export async function fillListings(database: pg.Pool | string, schema: string, count: number): Promise<void> {
  const connection = typeof database === 'string' ? { connectionString: database } : database.options;
  const admin = new pg.Client(connection);
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
  await admin.end();

  const sql = new NodePostgresClient({ ...connection, max: 1, options: `-c search_path=${pg.escapeIdentifier(schema)}` });
  try {
    await migrateReadModels(createKysely(sql));
    const now = new Date();
    for (let from = 0; from < count; from += CHUNK) {
      await sql.query(FILL_CHUNK, [from, Math.min(count, from + CHUNK), now, FIRST_CREATED_AT, count]);
    }
    await sql.query('VACUUM ANALYZE listings');
  } finally {
    await sql.close();
  }
}
