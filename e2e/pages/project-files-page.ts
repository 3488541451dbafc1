import { expect, type Page } from '@playwright/test';

/** The project's Files tab (project-tree) with its upload area and 'Data Sync' panel. */
export class ProjectFilesPage {
  constructor(
    readonly page: Page,
    readonly namespace: string,
    readonly name: string,
  ) {}

  readonly uploadArea = () => this.page.getByRole('region', { name: 'Upload files or folders' });
  readonly filesInput = () => this.page.getByTestId('upload-files-input');
  readonly folderInput = () => this.page.getByTestId('upload-folder-input');
  readonly dataSync = () => this.page.getByRole('region', { name: 'Data Sync' });
  readonly updateChanges = () => this.dataSync().getByRole('button', { name: 'Update Changes' });
  readonly uploadsToast = () =>
    this.page.getByRole('status', { name: 'Uploading data to projects' });

  async goto(location = '') {
    const base = `/projects/${encodeURIComponent(this.namespace)}/${encodeURIComponent(this.name)}/tree`;
    await this.page.goto(location ? `${base}/${location}` : base);
    await expect(this.page.getByRole('table')).toBeVisible();
  }

  /**
   * Opens the Data Sync panel's details when they are collapsed (narrow screens start with the
   * panel collapsed in a corner, issue 31).
   */
  async showDetails() {
    const toggle = this.dataSync().getByRole('button', {
      name: 'Show or hide the Data Sync details',
    });
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }

  /** Expects the panel's counts of added, updated and removed files. */
  async expectCounts(added: number, updated: number, removed: number) {
    const counts = this.dataSync().getByRole('group', { name: 'Changes' });
    await expect(counts).toContainText(`Added: ${added}`);
    await expect(counts).toContainText(`Updated: ${updated}`);
    await expect(counts).toContainText(`Removed: ${removed}`);
  }

  /**
   * Drops with real drag events carrying a DataTransfer built in the page (`script` is page
   * code returning it: the e2e project has no DOM types).
   */
  async dropTransfer(script: string) {
    const transfer = await this.page.evaluateHandle(script);
    const target = this.page.getByRole('table');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      await target.dispatchEvent(type, { dataTransfer: transfer });
    }
    await transfer.dispose();
  }

  /** Drops text files, by name and content. */
  async dropFiles(files: Record<string, string>) {
    await this.dropTransfer(`(() => {
      const transfer = new DataTransfer();
      for (const [name, text] of Object.entries(${JSON.stringify(files)})) {
        transfer.items.add(new File([text], name, { type: 'text/plain' }));
      }
      return transfer;
    })()`);
  }

  /** The project as the API returns it now. */
  async project(): Promise<{ version: string; files: { path: string; checksum: string }[] }> {
    const response = await this.page.request.get(
      `/v1/project/${encodeURIComponent(this.namespace)}/${encodeURIComponent(this.name)}`,
    );
    expect(response.status()).toBe(200);
    return response.json();
  }

  /** The bytes of a project file (latest version). */
  async download(path: string): Promise<Buffer> {
    const response = await this.page.request.get(
      `/v1/project/raw/${encodeURIComponent(this.namespace)}/${encodeURIComponent(this.name)}?file=${encodeURIComponent(path)}`,
    );
    expect(response.status()).toBe(200);
    return response.body();
  }
}
