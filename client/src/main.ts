import './styles.css';
import { App } from './app/app';

const root = document.getElementById('app');
if (root) new App(root).start();
