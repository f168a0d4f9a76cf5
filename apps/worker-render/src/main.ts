import 'reflect-metadata';
import { runApp } from '@mailproof/queue';
import { startWorkerRender } from './start-worker-render';

runApp(startWorkerRender);
