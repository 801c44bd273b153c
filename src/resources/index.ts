/** The served kinds. Routes, discovery and OpenAPI are generated from this list. */
import type { ResourceDefinition } from '../machinery/resource-definition';
import { configMapDefinition } from './config-map';

export const allDefinitions: ResourceDefinition[] = [configMapDefinition];
