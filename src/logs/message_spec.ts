/**
 * The shape of one recognised log message (src/logs/messages.ts, src/logs/run_messages.ts): its
 * text and the builder of its event. Its own module so both tables import it without a circle.
 * @module
 */
import type { EventBase, LogEvent } from "./types.ts";

/** Result of a builder: an event, or a string describing a missing / malformed field. */
export type BuildResult = LogEvent | string;

/** One recognised message. */
export interface MessageSpec {
  /** Message text as logged (matched with startsWith at the message position). */
  text: string;
  /** Builds the event from the flat `[k, v, …]` field list. */
  build(f: string[], base: EventBase): BuildResult;
  /**
   * The event type, for messages the leg pairer never reads: the parser skips building them
   * when the caller did not ask for that type (position fixes are a large share of a log).
   */
  only?: LogEvent["type"];
}
