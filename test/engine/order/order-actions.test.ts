import { describe, expect, it } from 'vitest';
import { adminActionsAt, buyerActionsAt, decideOrder, DomainError, type OrderCommand, type OrderEvent } from '../../../engine/domain';
import {
  addressedOrder,
  after,
  cancelledOrder,
  cancelOrder,
  changeShippingCharge,
  completedOrder,
  confirmDelivery,
  declineSecondChance,
  offeredOrder,
  offerSecondChance,
  overdueOrder,
  paidOrder,
  placedOrder,
  placedState,
  recordPayment,
  releaseListing,
  setShippingAddress,
  shipOrder,
  shippedOrder,
  thirdBidderCandidate,
} from './order-fixtures';
import { admin } from '../fixtures';

/**
 * The actions screens offer (adminActionsAt, buyerActionsAt) are the decider's own: in every state an
 * order can reach, an action is offered exactly when the decider accepts its command.
 */
const STATES: Record<string, () => OrderEvent[]> = {
  placed: placedOrder,
  addressed: addressedOrder,
  'partly paid': () => after(addressedOrder(), recordPayment(1_000)),
  overdue: overdueOrder,
  paid: paidOrder,
  shipped: shippedOrder,
  completed: completedOrder,
  cancelled: cancelledOrder,
  offered: offeredOrder,
  'offer declined': () => after(offeredOrder(), declineSecondChance()),
  relisted: () => after(cancelledOrder(), releaseListing()),
};

const ADMIN_COMMANDS: Record<keyof ReturnType<typeof adminActionsAt>, () => OrderCommand> = {
  recordPayment: () => recordPayment(1),
  changeShipping: () => changeShippingCharge(3_000),
  ship: () => shipOrder(),
  markDelivered: () => confirmDelivery({ actor: admin }),
  cancel: () => cancelOrder(),
  offerToRunnerUp: () => offerSecondChance(thirdBidderCandidate, { offerId: 'offer-9' }),
  relist: () => releaseListing(),
};

const BUYER_COMMANDS: Record<keyof ReturnType<typeof buyerActionsAt>, () => OrderCommand> = {
  setShippingAddress: () => setShippingAddress(),
  confirmReceipt: () => confirmDelivery(),
};

function accepts(history: OrderEvent[], command: OrderCommand): boolean {
  try {
    return decideOrder(command, placedState(history)).length > 0;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

describe('the actions offered for an order are the ones the decider accepts', () => {
  for (const [name, history] of Object.entries(STATES)) {
    it(`when ${name}`, () => {
      const state = placedState(history());
      const adminOffers = adminActionsAt({ ...state, hasShippingAddress: state.address !== null });
      for (const [action, command] of Object.entries(ADMIN_COMMANDS)) {
        expect(adminOffers[action as keyof typeof adminOffers], `admin ${action}`).toBe(accepts(history(), command()));
      }
      const buyerOffers = buyerActionsAt(state.status);
      for (const [action, command] of Object.entries(BUYER_COMMANDS)) {
        // Setting the address it already has changes nothing (no event) but is allowed: compare with a new one.
        const issued = action === 'setShippingAddress' ? setShippingAddress({ ...setShippingAddress().data.address, line1: '2 Other Street' }) : command();
        expect(buyerOffers[action as keyof typeof buyerOffers], `buyer ${action}`).toBe(accepts(history(), issued));
      }
    });
  }
});
