/**
 * Event, declared twice over one stored object: core v1 Event and the
 * events.svc.io/v1 Event (upstream's events.k8s.io/v1), whose fields are
 * the core ones renamed (note = message, regarding = involvedObject, ...).
 */
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, Format } from '../../machinery/schema/declare';

/** core v1 ObjectReference. */
export class EventObjectReference {
  @IsOptional() @IsString() @Describe('API version of the referent.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('A field within the referent, for references to part of an object.') fieldPath?: string;
  @IsOptional() @IsString() @Describe('Kind of the referent.') kind?: string;
  @IsOptional() @IsString() @Describe('Name of the referent.') name?: string;
  @IsOptional() @IsString() @Describe('Namespace of the referent.') namespace?: string;
  @IsOptional() @IsString() @Describe('Resource version of the referent.') resourceVersion?: string;
  @IsOptional() @IsString() @Describe('UID of the referent.') uid?: string;
}

export class EventSource {
  @IsOptional() @IsString() @Describe('Component that generated the event.') component?: string;
  @IsOptional() @IsString() @Describe('Node name on which the event was generated.') host?: string;
}

export class EventSeries {
  @IsOptional() @IsInt() @Describe('Number of occurrences in this series up to the last heartbeat time.') count?: number;
  @IsOptional() @Format('date-time') @Describe('Time of the last occurrence observed (microsecond precision).') lastObservedTime?: string;
}

@Describe('A report of something that happened to an object, kept for a limited time (--event-ttl).')
export class Event {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @IsOptional() @ValidateNested() @Type(() => EventObjectReference) @Describe('The object this event is about.') involvedObject?: EventObjectReference;
  @IsOptional() @IsString() @Describe('Short, machine-understandable reason for the transition into the object\'s current status.') reason?: string;
  @IsOptional() @IsString() @Describe('A human-readable description of the status of this operation.') message?: string;
  @IsOptional() @ValidateNested() @Type(() => EventSource) @Describe('The component reporting this event.') source?: EventSource;
  @IsOptional() @Format('date-time') @Describe('When the event was first recorded.') firstTimestamp?: string;
  @IsOptional() @Format('date-time') @Describe('When the most recent occurrence of this event was recorded.') lastTimestamp?: string;
  @IsOptional() @IsInt() @Describe('The number of times this event has occurred.') count?: number;
  @IsOptional() @IsString() @Describe('Type of this event: Normal or Warning.') type?: string;
  @IsOptional() @Format('date-time') @Describe('When this event was first observed (microsecond precision).') eventTime?: string;
  @IsOptional() @ValidateNested() @Type(() => EventSeries) @Describe('Data about the series this event represents, if any.') series?: EventSeries;
  @IsOptional() @IsString() @Describe('What action was taken or failed regarding the object.') action?: string;
  @IsOptional() @ValidateNested() @Type(() => EventObjectReference) @Describe('A secondary object for more complex actions.') related?: EventObjectReference;
  @IsOptional() @IsString() @Describe('Name of the controller that emitted this event, e.g. `kubernetes.io/kubelet`.') reportingComponent?: string;
  @IsOptional() @IsString() @Describe('ID of the controller instance, e.g. `kubelet-xyzf`.') reportingInstance?: string;
}

@Describe('A report of something that happened to an object (events.svc.io/v1 view of the core Event).')
export class EventsEvent {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @IsOptional() @Format('date-time') @Describe('When this event was first observed (microsecond precision). Required.') eventTime?: string;
  @IsOptional() @ValidateNested() @Type(() => EventSeries) @Describe('Data about the series this event represents, if any.') series?: EventSeries;
  @IsOptional() @IsString() @Describe('Name of the controller that emitted this event, e.g. `kubernetes.io/kubelet`.') reportingController?: string;
  @IsOptional() @IsString() @Describe('ID of the controller instance, e.g. `kubelet-xyzf`.') reportingInstance?: string;
  @IsOptional() @IsString() @Describe('What action was taken or failed regarding the regarding object.') action?: string;
  @IsOptional() @IsString() @Describe('Why the action was taken, in UpperCamelCase.') reason?: string;
  @IsOptional() @ValidateNested() @Type(() => EventObjectReference) @Describe('The object this event is about.') regarding?: EventObjectReference;
  @IsOptional() @ValidateNested() @Type(() => EventObjectReference) @Describe('A secondary object for more complex actions.') related?: EventObjectReference;
  @IsOptional() @IsString() @Describe('A human-readable description of the status of this operation (at most 1 kB).') note?: string;
  @IsOptional() @IsString() @Describe('Type of this event: Normal or Warning.') type?: string;
  @IsOptional() @ValidateNested() @Type(() => EventSource) @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedSource?: EventSource;
  @IsOptional() @Format('date-time') @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedFirstTimestamp?: string;
  @IsOptional() @Format('date-time') @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedLastTimestamp?: string;
  @IsOptional() @IsInt() @Describe('The deprecated field assuring backward compatibility with core.v1 Event type.') deprecatedCount?: number;
}
