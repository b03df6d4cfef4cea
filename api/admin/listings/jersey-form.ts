import type { ListingDetails } from '../../../engine/domain';
import { JERSEY_TEAMS, jerseyFormSchema, type JerseyForm } from '../../contracts/admin/jersey-form';
import type { FieldError } from '../../contracts/common';
import { toCents } from '../../http/money';

/**
 * The jersey form on the server: POST /api/admin/jerseys and every row of a bulk import are checked
 * with the contract's schema, and a valid form becomes a listing's details.
 */

/** Every problem of the form at once, each naming its field; or the form, cleaned. */
export function validateJerseyForm(input: unknown): { form: JerseyForm; errors?: undefined } | { errors: FieldError[] } {
  const parsed = jerseyFormSchema.safeParse(input);
  if (parsed.success) return { form: parsed.data };
  return { errors: parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'form', message: issue.message })) };
}

/** What the listing says of the jersey: the form's fields (player, number, team, size, condition, game) in the listing's shape. */
export function jerseyListingDetails(form: JerseyForm): ListingDetails {
  const team = JERSEY_TEAMS[form.team];
  const teamShort = team.split(' ').at(-1)!;
  return {
    title: `${form.playerName} #${form.jerseyNumber} ${teamShort} Jersey`,
    description: form.description ?? '',
    category: 'CLOTHING',
    condition: form.condition,
    sportType: 'FOOTBALL',
    price: form.price === undefined ? 0 : toCents(form.price, 'Price'),
    playerName: form.playerName,
    teamOrClub: team,
    leagueOrEvent: 'NFL',
    dateOrSeason: form.gameDate ?? null,
    size: form.size.toUpperCase(),
    tags: [],
    jersey: {
      jerseyNumber: form.jerseyNumber,
      gameTitle: form.gameTitle ?? null,
      gameDate: form.gameDate ?? null,
      opponent: form.opponent ?? null,
      venue: form.venue ?? null,
      stats: {
        touchdowns: form.stats.touchdowns ?? null,
        passingYards: form.stats.passingYards ?? null,
        completions: form.stats.completions ?? null,
      },
    },
  };
}

/** The words a jersey's address is made of: "tom-brady-12-buccaneers-jersey". */
export function jerseySlugParts(form: JerseyForm): string[] {
  return [form.playerName, String(form.jerseyNumber), JERSEY_TEAMS[form.team].split(' ').at(-1)!, 'jersey'];
}
