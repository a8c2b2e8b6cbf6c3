// The create dialog's map editor: a room added and named in the UI arrives in the school's map.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';
import { E2E_NAME_PREFIX, chromiumWithAFreeSchoolSlot } from './support/api.mjs';

const ROOM_NAME = 'E2E Room 42';

const session = chromiumWithAFreeSchoolSlot(launch);

test('a room added in the map editor shows up in the opened school, in both languages', async () => {
  const a = await newPage(session.browser);
  const { page } = a;
  await page.goto(`${serverUrl()}/#/`);
  await page.getByTestId('lang-en').click();
  await page.getByTestId('create-school').click();
  const dialog = page.getByTestId('create-dialog');
  await dialog.getByTestId('map-editor').waitFor();

  // Add a room of the first offered type to the first floor and name it.
  const floor = dialog.locator('[data-testid="map-node"][data-kind="floor"]').first();
  const floorId = await floor.getAttribute('data-node-id');
  const nodesBefore = await dialog.getByTestId('map-node').count();
  const typeSelect = dialog.locator(`[data-testid="map-add-type"][data-parent-id="${floorId}"]`);
  const firstType = await typeSelect.locator('option').first().getAttribute('value');
  await typeSelect.selectOption(firstType);
  await dialog.locator(`[data-testid="map-add"][data-parent-id="${floorId}"]`).click();
  assert.equal(await dialog.getByTestId('map-node').count(), nodesBefore + 1);
  const newName = page.locator(':focus');
  assert.equal(await newName.getAttribute('data-testid'), 'map-node-name', 'focus moves to the new node');
  await newName.fill(ROOM_NAME);
  await newName.press('Tab');
  await screenshot(page, 'create-dialog-map-edited');

  const name = `${E2E_NAME_PREFIX}map ${Date.now()}`;
  await dialog.getByTestId('create-name').fill(name);
  await dialog.getByTestId('create-submit').click();
  await dialog.waitFor({ state: 'detached' });
  const card = page.getByTestId('school-card').filter({ hasText: name });
  await card.getByTestId('open-school').click();

  // The new room is in the snapshot tree; the search and a click on a node filter it.
  await page.getByTestId('tree-node').first().waitFor();
  const room = page.getByTestId('tree-node').filter({ hasText: ROOM_NAME });
  await room.first().waitFor();
  await page.getByTestId('map-search').fill(ROOM_NAME);
  await waitUntil(async () => (await page.locator('[data-node-button]').count()) <= 5, { what: 'the search to narrow the tree' });
  assert.ok(await page.locator('[data-node-button]').filter({ hasText: ROOM_NAME }).isVisible());
  await page.getByTestId('map-search').fill('');
  await page.locator(`[data-node-button="${floorId}"]`).click();
  await page.getByTestId('show-all').waitFor();
  assert.ok(await page.locator('[data-node-button]').filter({ hasText: ROOM_NAME }).isVisible(), 'the room is inside its floor');
  await screenshot(page, 'school-filtered');
  await page.getByTestId('show-all').click();
  await page.getByTestId('show-all').waitFor({ state: 'detached' });

  // Russian: the labels switch, the map comes again in the new locale, custom names stay as written.
  await page.getByTestId('lang-ru').click();
  await page.getByRole('heading', { name: 'Календарь' }).waitFor();
  await page.getByTestId('game-time').waitFor();
  await page.getByTestId('tree-node').filter({ hasText: ROOM_NAME }).first().waitFor();
  assert.match(await page.getByTestId('people').innerText(), /Люди/);
  await screenshot(page, 'school-ru');
  await page.getByTestId('lang-en').click();

  assert.deepEqual(a.errors, []);
  await a.context.close();
});
