import { keyQuery } from '../../../dynamodb/keyQuery.js';
import { queryItems } from '../../../dynamodb/query.js';
import { decodeJobCursor, jobEdge } from '../../cursor.js';
import type { JobPage, PageArgs } from '../../treeStore.js';
import { checkPage } from '../../validation.js';
import type { EngineContext } from '../core/engineContext.js';
import { jobFromItem, publicJob } from './jobRecord.js';
import { jobsQuery } from '../core/readPlans.js';

/**
 * A page of jobs, oldest first (newest first, read backwards): one Query of the JOBS
 * collection; the cursor names a record.
 */
export async function jobsPage(ctx: EngineContext, page: PageArgs): Promise<JobPage> {
  checkPage(page);
  let afterSk: string | undefined;
  if (page.after != null) {
    afterSk = decodeJobCursor(ctx.cursors, page.after);
  }
  const { items } = await queryItems(ctx.doc, keyQuery(ctx.table, jobsQuery(afterSk, page.backwards)), page.first + 1);
  return {
    edges: items.slice(0, page.first).map((item) => jobEdge(ctx.cursors, item.sk, publicJob(jobFromItem(item)))),
    hasNextPage: items.length > page.first,
  };
}
