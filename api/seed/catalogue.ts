import type { Cents, ListingDetails } from '../../engine/domain';

/**
 * The spec's 10 sample listings, as demo items the seed lists and auctions for real. Every item's
 * illustrations are drawn by images/generate.sh and shipped as JPEGs beside this file.
 */

export type IncrementTableName = 'FLAT_ONE_DOLLAR' | 'EBAY_INCREMENTS';

export interface DemoAuctionPlan {
  /** 0: open at once; later: PENDING ("Starting Soon") until then. */
  readonly startsInMinutes: number;
  readonly endsInMinutes: number;
  readonly increments: IncrementTableName;
  /** The end moves to `windowSeconds` after a late bid, never past `capMinutes` after the scheduled end. */
  readonly softClose: { readonly windowSeconds: number; readonly capMinutes: number } | null;
  readonly reservePrice: Cents | null;
  readonly buyNowPrice: Cents | null;
}

export interface DemoBid {
  /** Which of the two seeded bidders places it. */
  readonly bidder: 0 | 1;
  readonly amount: Cents;
  /** A proxy maximum (eBay-style), or none for a plain bid. */
  readonly maximum?: Cents;
}

export interface DemoItem {
  readonly slug: string;
  /** `details.price` is also the auction's starting price. */
  readonly details: ListingDetails;
  /** Files under images/, in gallery order. */
  readonly images: readonly string[];
  readonly auction: DemoAuctionPlan;
  readonly openingBids: readonly DemoBid[];
}

const MINUTE = 1;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Goldin's extended bidding: a late bid leaves 15 minutes. */
const GOLDIN_WINDOW = 15 * 60;
/** MatchWornShirt's reset: a late bid leaves 3 minutes; for the short auctions. */
const MATCHWORNSHIRT_WINDOW = 3 * 60;

/** The spec's own rules: $1 steps, no soft close, no reserve. */
function specRules(startsInMinutes: number, endsInMinutes: number): DemoAuctionPlan {
  return { startsInMinutes, endsInMinutes, increments: 'FLAT_ONE_DOLLAR', softClose: null, reservePrice: null, buyNowPrice: null };
}

const noFootballStats = { touchdowns: null, passingYards: null, completions: null };

export const DEMO_CATALOGUE: readonly DemoItem[] = [
  {
    slug: 'tom-brady-buccaneers-game-worn-jersey-nfc-championship-2021',
    details: {
      title: 'Tom Brady Game-Worn Buccaneers Jersey, 2021 NFC Championship Game',
      description:
        'Red home jersey worn by Tom Brady in the NFC Championship Game at Lambeau Field, the win that sent Tampa Bay to Super Bowl LV. ' +
        'Heavy wear throughout: turf burns on both sleeves, a repaired tear at the left hip and tape residue at the collar. ' +
        'Photo-matched by our authentication team to three sideline images from the second half; the NFC tag is sewn into the inner hem.',
      category: 'CLOTHING',
      condition: 'GAME_WORN',
      sportType: 'FOOTBALL',
      price: 1_950_000,
      playerName: 'Tom Brady',
      teamOrClub: 'Tampa Bay Buccaneers',
      leagueOrEvent: 'NFL Playoffs',
      dateOrSeason: '2020 season',
      size: '48',
      tags: ['WORN', 'PLAYOFF_GAME'],
      jersey: {
        jerseyNumber: 12,
        gameTitle: 'NFC Championship Game',
        gameDate: '2021-01-24',
        opponent: 'Green Bay Packers',
        venue: 'Lambeau Field',
        stats: { touchdowns: 3, passingYards: 280, completions: 20 },
      },
    },
    images: ['brady-front.jpg', 'brady-back.jpg', 'brady-card.jpg'],
    auction: {
      startsInMinutes: 0,
      endsInMinutes: 7 * DAY,
      increments: 'EBAY_INCREMENTS',
      softClose: { windowSeconds: GOLDIN_WINDOW, capMinutes: 4 * HOUR },
      reservePrice: 2_500_000,
      buyNowPrice: null,
    },
    openingBids: [{ bidder: 0, amount: 2_000_000 }],
  },
  {
    slug: 'patrick-mahomes-chiefs-signed-game-worn-jersey-2023-divisional',
    details: {
      title: 'Patrick Mahomes Signed Game-Worn Chiefs Jersey, 2023 AFC Divisional Round',
      description:
        'Home red jersey worn by Patrick Mahomes against Jacksonville in his MVP season, the playoff game he finished on a sprained ankle. ' +
        'Signed on the back numerals in black marker after the season, with the signing witnessed by our staff. ' +
        'Grass stains on the right shoulder and a team-issued laundry tag in the collar.',
      category: 'CLOTHING',
      condition: 'GAME_WORN',
      sportType: 'FOOTBALL',
      price: 950_000,
      playerName: 'Patrick Mahomes',
      teamOrClub: 'Kansas City Chiefs',
      leagueOrEvent: 'NFL Playoffs',
      dateOrSeason: '2022 season',
      size: '46',
      tags: ['WORN', 'SIGNED', 'PLAYOFF_GAME', 'MVP'],
      jersey: {
        jerseyNumber: 15,
        gameTitle: 'AFC Divisional Round',
        gameDate: '2023-01-21',
        opponent: 'Jacksonville Jaguars',
        venue: 'GEHA Field at Arrowhead Stadium',
        stats: { touchdowns: 2, passingYards: 195, completions: 22 },
      },
    },
    images: ['mahomes-front.jpg', 'mahomes-back.jpg'],
    auction: {
      startsInMinutes: 0,
      endsInMinutes: 3 * DAY,
      increments: 'EBAY_INCREMENTS',
      softClose: { windowSeconds: GOLDIN_WINDOW, capMinutes: 3 * HOUR },
      reservePrice: null,
      buyNowPrice: 1_450_000,
    },
    // No bids: buy-now stays on offer until the first one.
    openingBids: [],
  },
  {
    slug: 'giannis-antetokounmpo-bucks-game-worn-jersey-christmas-2021',
    details: {
      title: 'Giannis Antetokounmpo Game-Worn Bucks Jersey, Christmas Day 2021',
      description:
        'Green Milwaukee jersey worn by Giannis Antetokounmpo in the Christmas Day game against Boston. ' +
        'Team-issued with the player tag and size extension intact; light pilling under the arms from game use. ' +
        'Comes with the team letter of provenance and our NFC tag stitched beside the jock tag.',
      category: 'CLOTHING',
      condition: 'GAME_WORN',
      sportType: 'BASKETBALL',
      price: 480_000,
      playerName: 'Giannis Antetokounmpo',
      teamOrClub: 'Milwaukee Bucks',
      leagueOrEvent: 'NBA',
      dateOrSeason: '2021-22 season',
      size: '52',
      tags: ['WORN'],
      jersey: {
        jerseyNumber: 34,
        gameTitle: 'Christmas Day Game',
        gameDate: '2021-12-25',
        opponent: 'Boston Celtics',
        venue: 'Fiserv Forum',
        stats: noFootballStats,
      },
    },
    images: ['giannis-front.jpg', 'giannis-back.jpg'],
    auction: specRules(0, 2 * DAY),
    openingBids: [
      { bidder: 0, amount: 485_000 },
      { bidder: 1, amount: 490_000 },
    ],
  },
  {
    slug: 'erling-haaland-manchester-city-hat-trick-shirt-2022',
    details: {
      title: 'Erling Haaland Signed Match-Worn Manchester City Shirt, Hat-Trick vs. Crystal Palace',
      description:
        'Sky-blue home shirt worn by Erling Haaland for his first Premier League hat-trick, in the 4-2 comeback against Crystal Palace. ' +
        'Signed across the back in navy marker; unwashed, with match-day player patch and sleeve badge. ' +
        'Photo-matched to the second-half goal celebrations.',
      category: 'CLOTHING',
      condition: 'GAME_WORN',
      sportType: 'SOCCER',
      price: 650_000,
      playerName: 'Erling Haaland',
      teamOrClub: 'Manchester City',
      leagueOrEvent: 'Premier League',
      dateOrSeason: '2022-23 season',
      size: 'L',
      tags: ['WORN', 'SIGNED', 'HATTRICK'],
      jersey: {
        jerseyNumber: 9,
        gameTitle: 'Manchester City vs. Crystal Palace',
        gameDate: '2022-08-27',
        opponent: 'Crystal Palace',
        venue: 'Etihad Stadium',
        stats: noFootballStats,
      },
    },
    images: ['haaland-front.jpg', 'haaland-back.jpg', 'haaland-card.jpg'],
    auction: {
      startsInMinutes: 0,
      endsInMinutes: 6 * HOUR,
      increments: 'EBAY_INCREMENTS',
      softClose: { windowSeconds: MATCHWORNSHIRT_WINDOW, capMinutes: 2 * HOUR },
      reservePrice: null,
      buyNowPrice: null,
    },
    openingBids: [
      { bidder: 1, amount: 660_000 },
      { bidder: 0, amount: 680_000 },
    ],
  },
  {
    slug: 'aaron-judge-yankees-signed-game-used-bat-2022',
    details: {
      title: 'Aaron Judge Signed Game-Used Bat, 2022 Season',
      description:
        'Maple bat used by Aaron Judge during his record-setting 2022 season, his model stamped on the knob. ' +
        'Ball marks on the barrel, pine tar on the handle and a small crack above the label, as expected of a gamer. ' +
        'Signed on the barrel; the NFC tag is set into the knob.',
      category: 'EQUIPMENT',
      condition: 'GAME_WORN',
      sportType: 'BASEBALL',
      price: 290_000,
      playerName: 'Aaron Judge',
      teamOrClub: 'New York Yankees',
      leagueOrEvent: 'MLB',
      dateOrSeason: '2022 season',
      size: null,
      tags: ['AUTOGRAPHED'],
      jersey: null,
    },
    images: ['judge-bat.jpg', 'judge-card.jpg'],
    auction: specRules(0, 1 * DAY),
    openingBids: [{ bidder: 1, amount: 295_000 }],
  },
  {
    slug: 'stephen-curry-warriors-game-worn-wristbands-2022-23',
    details: {
      title: 'Stephen Curry Game-Worn Warriors Wristbands (Pair)',
      description:
        'A pair of wristbands worn by Stephen Curry in a 2022-23 regular-season home game, one blue and one gold. ' +
        'Collected courtside by the equipment staff at the final buzzer; sweat staining consistent with use. ' +
        'Each band carries its own NFC tag.',
      category: 'ACCESSORIES',
      condition: 'GAME_WORN',
      sportType: 'BASKETBALL',
      price: 15_000,
      playerName: 'Stephen Curry',
      teamOrClub: 'Golden State Warriors',
      leagueOrEvent: 'NBA',
      dateOrSeason: '2022-23 season',
      size: null,
      tags: ['WORN'],
      jersey: null,
    },
    images: ['curry-wristbands.jpg'],
    auction: specRules(0, 12 * MINUTE),
    openingBids: [
      { bidder: 0, amount: 16_000 },
      { bidder: 1, amount: 17_500 },
      { bidder: 0, amount: 19_000 },
    ],
  },
  {
    slug: 'mohamed-salah-liverpool-signed-match-ball-2023',
    details: {
      title: 'Mohamed Salah Signed Match Ball, Liverpool 7-0 Manchester United',
      description:
        'Official match ball from Liverpool\'s 7-0 win over Manchester United at Anfield, the day Mohamed Salah scored twice to become the club\'s top Premier League scorer. ' +
        'Signed by Salah in blue marker; scuffing from play on several panels. ' +
        'Released by the club with its match-ball certificate.',
      category: 'EQUIPMENT',
      condition: 'GAME_WORN',
      sportType: 'SOCCER',
      price: 120_000,
      playerName: 'Mohamed Salah',
      teamOrClub: 'Liverpool FC',
      leagueOrEvent: 'Premier League',
      dateOrSeason: '2023-03-05',
      size: '5',
      tags: ['SIGNED', '2 GOALS'],
      jersey: null,
    },
    images: ['salah-ball.jpg', 'salah-card.jpg'],
    auction: {
      startsInMinutes: 0,
      endsInMinutes: 45 * MINUTE,
      increments: 'EBAY_INCREMENTS',
      softClose: { windowSeconds: MATCHWORNSHIRT_WINDOW, capMinutes: 1 * HOUR },
      reservePrice: null,
      buyNowPrice: null,
    },
    openingBids: [
      { bidder: 0, amount: 122_500 },
      // A proxy bid: the later, lower bid is answered automatically.
      { bidder: 1, amount: 130_000, maximum: 145_000 },
      { bidder: 0, amount: 135_000 },
    ],
  },
  {
    slug: 'jayson-tatum-celtics-signed-game-worn-sneakers-2024',
    details: {
      title: 'Jayson Tatum Signed Game-Worn Sneakers, 2023-24 Championship Season',
      description:
        'Green-and-white player-edition sneakers worn by Jayson Tatum in a 2023-24 home game, the season Boston won its 18th title. ' +
        'Signed on the left shoe\'s side panel; court dust on both soles and creasing at the toe box. ' +
        'NFC tags are fixed under each insole.',
      category: 'FOOTWEAR',
      condition: 'GAME_WORN',
      sportType: 'BASKETBALL',
      price: 250_000,
      playerName: 'Jayson Tatum',
      teamOrClub: 'Boston Celtics',
      leagueOrEvent: 'NBA',
      dateOrSeason: '2023-24 season',
      size: 'US 15',
      tags: ['WORN', 'SIGNED'],
      jersey: null,
    },
    images: ['tatum-sneakers.jpg'],
    auction: {
      startsInMinutes: 2 * HOUR,
      endsInMinutes: 5 * DAY,
      increments: 'EBAY_INCREMENTS',
      softClose: { windowSeconds: GOLDIN_WINDOW, capMinutes: 3 * HOUR },
      reservePrice: 320_000,
      buyNowPrice: null,
    },
    openingBids: [],
  },
  {
    slug: 'mookie-betts-dodgers-player-issued-cleats-2024',
    details: {
      title: 'Mookie Betts Player-Issued Dodgers Cleats, 2024 Season',
      description:
        'Royal-blue molded cleats issued to Mookie Betts for the 2024 season and never worn in a game. ' +
        'Carries his number on the heel and the equipment manager\'s inventory sticker on the sole. ' +
        'Shipped in the original box with our NFC tag on the tongue.',
      category: 'FOOTWEAR',
      condition: 'PLAYER_ISSUED',
      sportType: 'BASEBALL',
      price: 150_000,
      playerName: 'Mookie Betts',
      teamOrClub: 'Los Angeles Dodgers',
      leagueOrEvent: 'MLB',
      dateOrSeason: '2024 season',
      size: 'US 9.5',
      tags: ['LIMITED_EDITION'],
      jersey: null,
    },
    images: ['betts-cleats.jpg'],
    auction: specRules(1 * DAY, 4 * DAY),
    openingBids: [],
  },
  {
    slug: 'virgil-van-dijk-liverpool-captains-armband-2024-final',
    details: {
      title: "Virgil van Dijk Match-Worn Captain's Armband, 2024 League Cup Final",
      description:
        "Captain's armband worn by Virgil van Dijk at Wembley, where his 118th-minute header beat Chelsea in the League Cup final. " +
        'Handed to our representative in the dressing room after the trophy presentation. ' +
        'Velcro fastening worn from use; the NFC tag is bonded inside the band.',
      category: 'ACCESSORIES',
      condition: 'GAME_WORN',
      sportType: 'SOCCER',
      price: 90_000,
      playerName: 'Virgil van Dijk',
      teamOrClub: 'Liverpool FC',
      leagueOrEvent: 'EFL Cup',
      dateOrSeason: '2024-02-25',
      size: null,
      tags: ['WORN', 'FINAL_MATCH', 'GOALS'],
      jersey: null,
    },
    images: ['van-dijk-armband.jpg'],
    auction: specRules(0, 2 * HOUR),
    openingBids: [{ bidder: 0, amount: 92_500 }],
  },
];
