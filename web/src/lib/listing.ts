/** Spec section 3, Listing, as the public listing calls answer it (api/listings/presenters.ts); every feature reads this one shape. */
export interface Listing {
  readonly id: string;
  readonly ownerId: string;
  readonly title: string;
  readonly description: string;
  readonly price: string;
  readonly category: string;
  readonly condition: string;
  readonly sportType: string;
  readonly mediaUrls: readonly string[];
  readonly status: string;
  /** Always present from this API; the spec allows a listing without one (then /marketplace/listing/{id}). */
  readonly slug: string | null;
  readonly nfcUid: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly playerName: string | null;
  readonly teamOrClub: string | null;
  readonly leagueOrEvent: string | null;
  readonly dateOrSeason: string | null;
  readonly size: string | null;
  readonly tags: readonly string[];
  readonly jersey: JerseyDetails | null;
  readonly auctionId: string | null;
  readonly endsAt: string | null;
}

/** What the jersey form recorded; every field may be missing on older items. */
export interface JerseyDetails {
  readonly jerseyNumber?: number | null;
  readonly gameTitle?: string | null;
  readonly gameDate?: string | null;
  readonly opponent?: string | null;
  readonly venue?: string | null;
  readonly stats?: Record<string, number | string | null> | null;
}
