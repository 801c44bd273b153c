/** What the generic conformance tester needs to know about one kind. */
import type { ResourceDefinition } from '../../src/machinery/resource-definition';

export interface InvalidCase {
  /** Short label for the test name. */
  title: string;
  /** A full object (as a client would POST it) that must be rejected with 422. */
  object: Record<string, unknown>;
  /** The field path the first cause must name, e.g. `spec.maxExpirationSeconds`. */
  field: string;
  /** Cause reason, e.g. `FieldValueInvalid`. */
  reason: string;
}

export interface KindFixture {
  definition: ResourceDefinition;
  /** Feature gates the server must run with for this fixture (e.g. to serve a gated kind). */
  gates?: Record<string, boolean>;
  /** A valid object to create (name given; namespace filled by the tester for namespaced kinds). */
  valid: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Mutates a stored object into a valid update (PUT). */
  update: (obj: Record<string, unknown>) => void;
  /** A second valid object for the collection tests, where a renamed copy of valid() would not be valid (CRD names). */
  second?: () => Record<string, unknown>;
  /**
   * For kinds a controller writes right after create (a CRD's names and conditions): true once the object got there;
   * the tester waits for it before reading and replacing, which would otherwise race with that write.
   */
  settled?: (obj: Record<string, unknown>) => boolean;
  /** A merge patch that is valid on the created object. */
  mergePatch: Record<string, unknown>;
  invalid: InvalidCase[];
  /**
   * A label selector (`key=value`) that `valid()` objects match, for kinds the server creates objects of
   * itself (the bootstrap RBAC policy): the tester lists and deletes the collection through it.
   */
  selector?: string;
  /** A valid status to PUT through /status, when the kind has a status subresource. */
  status?: (obj: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;
}
