/** How much of an endpoint a run at a URL keeps (endpoint-observations.ts, balancer-observations.ts). */

/** Rows of one kind kept, execution times or a load balancer's requests (a uniform sample of them when more were seen). */
export const MAX_SAMPLES = 10_000;
/** Workers followed; later ones are counted, not kept. */
export const MAX_WORKERS = 50_000;
