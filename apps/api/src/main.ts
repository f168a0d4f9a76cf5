import 'reflect-metadata';
import { runApp } from '@mailproof/queue';
import { startApi } from './start-api';

runApp(startApi);
