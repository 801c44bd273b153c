/**
 * Event, declared twice over one stored object: core v1 Event and the
 * events.svc.io/v1 Event (upstream's events.k8s.io/v1), whose fields are
 * the core ones renamed (note = message, regarding = involvedObject, ...).
 * The Go JSON tags differ between the two, as upstream's.
 */
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema, ObjectReference } from '../../machinery/meta.types';
import { Describe, EmitEmpty, Format, Int32, OmitEmpty } from '../../machinery/schema/declare';

export class EventSource {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Component that generated the event.') component?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Node name on which the event was generated.') host?: string;
}

/** core v1 EventSeries. */
export class EventSeries {
  @OmitEmpty() @IsOptional() @Int32() @Describe('Number of occurrences in this series up to the last heartbeat time.') count?: number;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('Time of the last occurrence observed (microsecond precision).') lastObservedTime?: string;
}

/** events.svc.io/v1 EventSeries: both fields required. */
export class EventsEventSeries {
  @EmitEmpty() @IsOptional() @Int32() @Describe('Number of occurrences in this series up to the last heartbeat time.') count?: number;
  @EmitEmpty() @IsOptional() @Format('date-time') @Describe('Time of the last occurrence observed (microsecond precision).') lastObservedTime?: string;
}

const typeMeta = 'REST resource this object represents.';

@Describe('A report of something that happened to an object, kept for a limited time (--event-ttl).')
export class Event {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe(typeMeta) kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectReference) @Describe('The object this event is about.') involvedObject?: ObjectReference;
  @OmitEmpty() @IsOptional() @IsString() @Describe("Short, machine-understandable reason for the transition into the object's current status.") reason?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A human-readable description of the status of this operation.') message?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => EventSource) @Describe('The component reporting this event.') source?: EventSource;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When the event was first recorded.') firstTimestamp?: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When the most recent occurrence of this event was recorded.') lastTimestamp?: string;
  @OmitEmpty() @IsOptional() @Int32() @Describe('The number of times this event has occurred.') count?: number;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Type of this event: Normal or Warning.') type?: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When this event was first observed (microsecond precision).') eventTime?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => EventSeries) @Describe('Data about the series this event represents, if any.') series?: EventSeries;
  @OmitEmpty() @IsOptional() @IsString() @Describe('What action was taken or failed regarding the object.') action?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ObjectReference) @Describe('A secondary object for more complex actions.') related?: ObjectReference;
  @EmitEmpty() @IsOptional() @IsString() @Describe('Name of the controller that emitted this event, e.g. `kubernetes.io/kubelet`.') reportingComponent?: string;
  @EmitEmpty() @IsOptional() @IsString() @Describe('ID of the controller instance, e.g. `kubelet-xyzf`.') reportingInstance?: string;
}

@Describe('A report of something that happened to an object (events.svc.io/v1 view of the core Event).')
export class EventsEvent {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe(typeMeta) kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @IsOptional() @Format('date-time') @Describe('When this event was first observed (microsecond precision). Required.') eventTime?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => EventsEventSeries) @Describe('Data about the series this event represents, if any.') series?: EventsEventSeries;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the controller that emitted this event, e.g. `kubernetes.io/kubelet`.') reportingController?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('ID of the controller instance, e.g. `kubelet-xyzf`.') reportingInstance?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('What action was taken or failed regarding the regarding object.') action?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Why the action was taken, in UpperCamelCase.') reason?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectReference) @Describe('The object this event is about.') regarding?: ObjectReference;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ObjectReference) @Describe('A secondary object for more complex actions.') related?: ObjectReference;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A human-readable description of the status of this operation (at most 1 kB).') note?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Type of this event: Normal or Warning.') type?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => EventSource) @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedSource?: EventSource;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedFirstTimestamp?: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedLastTimestamp?: string;
  @OmitEmpty() @IsOptional() @Int32() @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedCount?: number;
}
