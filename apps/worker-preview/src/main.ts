import 'reflect-metadata';
import { runApp } from '@mailproof/queue';
import { startWorkerPreview } from './start-worker-preview';

runApp(startWorkerPreview);
