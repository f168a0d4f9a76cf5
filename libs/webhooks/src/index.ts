export * from './webhook.queue';
export * from './webhook-queue.module';
