import 'reflect-metadata';
import { runApp } from '@mailproof/queue';
import { startWorkerDns } from './start-worker-dns';

runApp(startWorkerDns);
