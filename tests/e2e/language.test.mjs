// The UI switches between English and Russian, and remembers the choice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, newPage, screenshot, serverUrl } from './support/browser.mjs';

let session;
before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

test('switches labels between English and Russian and remembers the choice', async () => {
  const a = await newPage(session.browser);
  const { page } = a;
  await page.goto(`${serverUrl()}/#/`);
  await page.getByTestId('lang-en').click();
  await page.getByRole('heading', { name: 'Schools', level: 1 }).waitFor();
  assert.equal(await page.getByTestId('nav-arena').innerText(), 'Arena');
  assert.equal(await page.getByTestId('create-school').innerText(), 'New school');
  await screenshot(page, 'language-en');

  await page.getByTestId('lang-ru').click();
  await page.getByRole('heading', { name: 'Школы', level: 1 }).waitFor();
  assert.equal(await page.getByTestId('nav-arena').innerText(), 'Арена');
  assert.equal(await page.getByTestId('create-school').innerText(), 'Новая школа');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
  await screenshot(page, 'language-ru');

  // The create dialog asks the catalog in the UI language.
  const catalogRequest = page.waitForRequest((request) => request.url().includes('/api/catalog'));
  await page.getByTestId('create-school').click();
  assert.match((await catalogRequest).url(), /lang=ru/);
  await page.getByRole('heading', { name: 'Новая школа' }).waitFor();
  await page.keyboard.press('Escape');

  await page.reload();
  await page.getByRole('heading', { name: 'Школы', level: 1 }).waitFor();
  await page.getByTestId('lang-en').click();
  await page.getByRole('heading', { name: 'Schools', level: 1 }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('hschool.lang')), 'en');
  assert.deepEqual(a.errors, []);
  await a.context.close();
});
