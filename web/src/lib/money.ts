const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.00" (en-US). */
export function formatUsd(dollars: number | string): string {
  return usd.format(typeof dollars === 'string' ? Number(dollars) : dollars);
}

/** The price as cards show it, prefixed "US": "US $1,234.00". */
export function formatCardPrice(dollars: number | string): string {
  return `US ${formatUsd(dollars)}`;
}
