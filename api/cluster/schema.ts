import type { Generated } from 'kysely';

/** Which API process decides each hot auction's commands, for how long (api/cluster/auction-owners.ts). */
export interface AuctionOwnersTable {
  auction_id: string;
  /** The owning process: a random id per process start. */
  instance_id: string;
  /** Where the other processes send it the auction's commands (its INSTANCE_URL). */
  instance_url: string;
  /** Until when the lease holds (the database's clock); renewed while the process decides for the auction. */
  lease_until: Date;
  since: Generated<Date>;
}

export interface ClusterTables {
  auction_owners: AuctionOwnersTable;
}
