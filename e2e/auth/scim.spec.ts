import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { adminCredentials, adminState } from '../support/auth-states';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { scimToken } from '../support/scim';
import { continueAtMockIdp, signInWithSso } from '../support/sso-sign-in';

/**
 * A SCIM conversation as Okta holds it, over HTTP against the running console (look up, create,
 * read, replace, deactivate, re-activate), and what the operator's open browser and the operators
 * page make of it.
 */
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function scim(request: APIRequestContext, method: string, path: string, data?: unknown) {
  const response = await request.fetch(`/api/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
    ...(data === undefined ? {} : { data: JSON.stringify(data) }),
  });
  expect(response.headers()['content-type']).toBe('application/scim+json');
  return { status: response.status(), body: await response.json() };
}

const active = (request: APIRequestContext, id: string, value: boolean) =>
  scim(request, 'PATCH', `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [{ op: 'replace', value: { active: value } }],
  });

/** Okta's create, after the look-up it makes first. */
async function provision(request: APIRequestContext, email: string): Promise<string> {
  const filter = encodeURIComponent(`userName eq "${email}"`);
  expect((await scim(request, 'GET', `/Users?filter=${filter}`)).body.totalResults).toBe(0);
  const created = await scim(request, 'POST', '/Users', {
    schemas: [USER],
    userName: email,
    name: { givenName: 'Directory', familyName: 'Person' },
    emails: [{ primary: true, value: email, type: 'work' }],
    active: true,
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

test('the directory deactivates an operator: their open browser is signed out at its next request; re-activated, they sign in again', async ({
  browser,
  request,
}) => {
  const email = `scim-${randomUUID().slice(0, 8)}@e2e.example`;
  const id = await provision(request, email);
  expect((await scim(request, 'GET', `/Users/${id}`)).body).toMatchObject({ userName: email, active: true });
  const replaced = await scim(request, 'PUT', `/Users/${id}`, {
    schemas: [USER],
    userName: email,
    name: { givenName: 'Directory', familyName: 'Renamed' },
    emails: [{ primary: true, value: email, type: 'work' }],
    active: true,
  });
  expect(replaced.body.displayName).toBe('Directory Renamed');

  const page = await signInWithSso(browser, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);

  expect((await active(request, id, false)).body.active).toBe(false);
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in/);
  // And cannot come back in through SSO while deactivated.
  await continueAtMockIdp(page, email);
  await expect(page).toHaveURL(/\/sign-in\?error=/);
  await page.context().close();

  expect((await active(request, id, true)).body.active).toBe(true);
  const again = await signInWithSso(browser, email);
  await expect(again.getByTestId('operator-email')).toHaveText(email);
  await again.context().close();
});

test('the token anywhere but the Authorization header is 401, and the console logs it nowhere (the run’s last step searches)', async ({
  request,
}) => {
  for (const [path, headers] of [
    [`/api/scim/v2/Users?access_token=${scimToken}`, {}],
    ['/api/scim/v2/Users', { authorization: `Basic ${Buffer.from(`x:${scimToken}`).toString('base64')}` }],
    ['/api/scim/v2/Users', { authorization: `Bearer ${'0'.repeat(scimToken.length)}` }],
  ] as const) {
    const answer = await request.get(path, { headers });
    expect(answer.status(), path).toBe(401);
    expect(answer.headers()['content-type']).toBe('application/scim+json');
  }
});

test.describe('as an admin', () => {
  test.use({ storageState: adminState });

  test('the operators page says who the directory manages and how each signs in, and exports the list as CSV', async ({
    page,
    request,
  }) => {
    const email = `scim-listed-${randomUUID().slice(0, 8)}@e2e.example`;
    await provision(request, email);
    await page.goto('/operators');
    const row = page.getByTestId('operator-row').filter({ hasText: email });
    await expect(row.getByTestId('operator-row-directory')).toHaveText('Managed by your directory');
    await expect(row.getByTestId('operator-row-facts')).toContainText('Second factor: none');
    await expect(row.getByTestId('operator-row-facts')).toContainText('Signs in with: none yet');
    await expect(row.getByText('Role and status come from your directory.')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Change role' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Disable' })).toHaveCount(0);
    const admin = page.getByTestId('operator-row').filter({ hasText: adminCredentials.email });
    await expect(admin.getByTestId('operator-row-facts')).toContainText('Signs in with: password');
    await expectNoSeriousA11yViolations(page, 'the operators page with a directory-managed operator');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^operators-\d{8}-\d{4}\.csv$/);
    const text = await (await download.createReadStream()).toArray();
    const csv = Buffer.concat(text).toString('utf8');
    expect(csv.split('\r\n')[0]).toBe(
      '"email","name","role","status","second factor","signs in with","managed by directory","last sign-in (UTC)","added (UTC)"',
    );
    expect(csv).toContain(`"${email}","Directory Person","viewer","active","none","none yet","yes","never"`);
  });
});
