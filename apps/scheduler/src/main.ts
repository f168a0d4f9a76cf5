import 'reflect-metadata';
import { runApp } from '@mailproof/queue';
import { startScheduler } from './start-scheduler';

runApp(startScheduler);
