/**
 * Where notices and mail about orders lead in the web app, and where the app's router puts those
 * pages: one place for both. Apart from the order schemas so that the router imports only these bytes.
 */
export const ORDER_LINK_PATHS = { purchase: '/purchases', secondChance: '/second-chance', adminOrder: '/admin/orders' } as const;

/** A buyer's order page. */
export const purchasePath = (orderId: string) => `${ORDER_LINK_PATHS.purchase}/${encodeURIComponent(orderId)}`;

/** The page a runner-up answers a second-chance offer on. */
export const secondChancePath = (offerId: string) => `${ORDER_LINK_PATHS.secondChance}/${encodeURIComponent(offerId)}`;

/** An order in the admin's Orders view. */
export const adminOrderPath = (orderId: string) => `${ORDER_LINK_PATHS.adminOrder}/${encodeURIComponent(orderId)}`;
