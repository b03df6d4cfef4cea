import { expect } from 'vitest';
import { DomainError, fold, type Decider } from '../../engine/domain';

/**
 * given(events) / when(command) / then(events | error code), against a decider:
 *
 *   spec(auctionDecider).given([scheduled, opened]).when(placeBid(...)).thenEvents([...])
 */
export function spec<Command, Event, State>(decider: Decider<Command, Event, State>) {
  return {
    given(history: Event[]) {
      const state = fold(decider, history);
      return {
        state,
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            thenEvents(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            /** Matches event types and, optionally, a partial shape of each event's data. */
            thenEventsMatch(expected: Array<{ type: string; data?: Record<string, unknown> }>) {
              const events = run() as Array<{ type: string; data: Record<string, unknown> }>;
              expect(events.map((event) => event.type)).toEqual(expected.map((event) => event.type));
              expected.forEach((event, index) => {
                if (event.data) expect(events[index]!.data).toMatchObject(event.data);
              });
              return events;
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenError(code: string, message?: string | RegExp): DomainError {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, `expected ${code}`).toBeInstanceOf(DomainError);
              const error = caught as DomainError;
              expect(error.code).toBe(code);
              if (typeof message === 'string') expect(error.message).toBe(message);
              else if (message) expect(error.message).toMatch(message);
              return error;
            },
          };
        },
      };
    },
  };
}

/** The DomainError a decision throws; fails the test when it throws nothing or something else. */
export function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
}

/**
 * given/when/then for a decision that runs two deciders (a tag binding, a publication):
 *
 *   acrossTwo(listingDecider, nfcTagDecider, decideTagBinding).given(listingHistory, tagHistory).when(bind(...)).thenEvents({...})
 */
export function acrossTwo<Command, Decision, EventA, StateA, EventB, StateB>(
  first: Decider<never, EventA, StateA>,
  second: Decider<never, EventB, StateB>,
  decide: (command: Command, first: StateA, second: StateB) => Decision,
) {
  return {
    given(firstHistory: EventA[], secondHistory: EventB[] = []) {
      const firstState = fold(first, firstHistory);
      const secondState = fold(second, secondHistory);
      return {
        when(command: Command) {
          const run = () => decide(command, firstState, secondState);
          return {
            thenEvents(expected: Decision) {
              expect(run()).toEqual(expected);
            },
            thenError(code: string, message: string): DomainError {
              const error = refusal(run);
              expect([error.code, error.message]).toEqual([code, message]);
              return error;
            },
          };
        },
      };
    },
  };
}
