import type { TestProject } from 'vitest/node';
import { launchShuzhi, seedTemplate, TEMPLATE_ENV } from './server.ts';

/**
 * One seeded database for the whole E2E run, copied for every server a test file starts, and one built app
 * on a copy of it with captcha off so flows can sign in.
 */
export default async function setup(project: TestProject) {
  const template = await seedTemplate();
  process.env[TEMPLATE_ENV] = template.dir;
  const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
  project.provide('baseUrl', shuzhi.baseUrl);
  project.provide('seededDir', template.dir);
  return async () => {
    await shuzhi.stop();
    template.remove();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    seededDir: string;
  }
}
