/** The watch endpoint's contract; the streaming implementation lives beside it. */
import type { Request, Response } from 'express';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { ListOptions } from '../../registry/request';
import type { ResponseFormat } from './media';

export interface WatchServer {
  serve(def: ResourceDefinition, req: Request, res: Response, opts: ListOptions, format: ResponseFormat): Promise<void>;
}
