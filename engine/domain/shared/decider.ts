/**
 * One decider per aggregate. `decide` returns the events a command causes or throws a DomainError;
 * `evolve` folds one event into the state. Both are pure: the same inputs always give the same output.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

export function fold<Event, State>(decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>, events: Iterable<Event>): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
