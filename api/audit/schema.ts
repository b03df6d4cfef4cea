import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AuditReadsTable {
  /** bigint: a string from node-postgres, a number from PGlite. */
  id: Generated<string | number>;
  user_id: string;
  route: string;
  params: JSONColumnType<Record<string, unknown>>;
  query: JSONColumnType<Record<string, unknown>>;
  at: Timestamp;
}

export interface AuditTables {
  audit_reads: AuditReadsTable;
}
