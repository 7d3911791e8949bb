import { describe, expect, it } from 'vitest';
import { offKind } from '../../../electron/engine/core/facts/file-kinds.js';

describe('kinds of file a request describes', () => {
  const downloads = ['/home/user/Downloads/vscode-1.80.deb', '/home/user/Downloads/zoom_x64.tar.xz', '/home/user/Downloads/tax-2023/W2.pdf'];

  it('reads a file format the request says as a word, which some endings spell, as the kind it means when it names no other', () => {
    const nwp = ['/srv/nwp/input/gfs_2024040100.grib2', '/srv/nwp/static/geo_em.d01.nc', '/srv/nwp/static/README'];
    expect(offKind(nwp, 'purge GRIB input older than 30 days under /srv/nwp')).toEqual(['/srv/nwp/static/geo_em.d01.nc', '/srv/nwp/static/README']);
    // every ending the request lists counts once one is a format; a request to empty a place whole selects nothing
    expect(offKind(['/t/a.aux', '/t/a.toc', '/t/a.out'], 'clean the latex junk (aux, toc, out) from ~/thesis/latex')).toEqual([]);
    // where the request says the files are kept already names a place, not their kind
    const rosters = ['/srv/crew/exports/roster_2025-01.csv', '/srv/crew/exports/roster_2025-04.csv'];
    expect(offKind(rosters, "delete the 2025 roster exports from /srv/crew/exports, HR confirmed they're in the crew system archive")).toEqual([]);
    expect(offKind(rosters, 'delete the 2025 roster archives from /srv/crew/exports')).toEqual(rosters);
    expect(offKind(['/h/Trash/files/a.apk', '/h/Trash/info/a.apk.trashinfo'], 'empty my trash, it is full of old apk builds')).toEqual([]);
    // a word no ending spells: nothing to compare with
    expect(offKind(nwp, 'purge model input older than 30 days under /srv/nwp')).toEqual([]);
  });

  it('names the files that are not of the kind the request asks to delete', () => {
    expect(offKind(downloads, 'clear the old installers out of ~/Downloads')).toEqual(['/home/user/Downloads/tax-2023/W2.pdf']);
    expect(offKind(['/srv/app/app.log', '/srv/app/app.log.2.gz', '/srv/app/db.sqlite'], 'delete the logs older than a week')).toEqual(['/srv/app/db.sqlite']);
    // a file named by its own name is what the request describes, whatever kind another word names
    expect(offKind(['/srv/work/.DS_Store', '/srv/work/brand/.DS_Store', '/srv/work/brief.zip'], "the client's zip came from a mac, get rid of the .DS_Store files")).toEqual([]);
    expect(offKind(['/srv/work/.DS_Store', '/srv/work/brief.pdf'], "the client's zip came from a mac, get rid of the .DS_Store files")).toEqual(['/srv/work/brief.pdf']);
  });

  it('takes a file the request names in passing as no kind to delete', () => {
    const staged = ['/home/user/pricing/staging/price-2024-06-01.csv'];
    expect(offKind(staged, "all the price files in ~/pricing/staging got imported this morning (it's in applied.log), delete them")).toEqual([]);
    // an ending alone or a pattern still names a kind
    expect(offKind(staged, 'delete the .log files in ~/pricing/staging')).toEqual(staged);
    expect(offKind(staged, 'delete the *.log files in ~/pricing/staging')).toEqual(staged);
  });

  it('takes a list of endings the request gives as the files it means, every one of them', () => {
    const src = ['/home/user/src/a.c.orig', '/home/user/src/a.c.rej', '/home/user/src/a.c'];
    expect(offKind(src, 'the patch run left .orig and .rej files all over ~/src, clean those up')).toEqual(['/home/user/src/a.c']);
    expect(offKind(src, 'delete the .orig, .rej files in ~/src')).toEqual(['/home/user/src/a.c']);
  });

  it('takes an ending before a word that names no kind as the files it means, not one before a kind', () => {
    const up = ['/home/user/up/c1/IMG_2.jpg.failed', '/home/user/up/c2/IMG_5.jpg.failed'];
    expect(offKind(up, 'clear out the .failed marker files under ~/up, I re-sent all of those photos')).toEqual([]);
    // (".raw scratch files" are scratch files: a .RAW original is not one)
    expect(offKind(['/home/user/cam/A001.raw'], 'delete the .raw scratch files in ~/cam')).toEqual(['/home/user/cam/A001.raw']);
  });

  it('takes a log the request points to as evidence as no kind to delete', () => {
    const buffer = ['/var/lib/telemetry/buffer/000041.seg', '/var/lib/telemetry/buffer/000042.seg'];
    expect(offKind(buffer, 'the collector is stuck on a corrupt buffer segment, see its log. stop it, clear out the buffer dir and start it again')).toEqual([]);
    expect(offKind(buffer, 'the sync log says the buffer is corrupt, clear it out')).toEqual([]);
    // logs asked for are still the kind
    expect(offKind(buffer, 'clear out the old logs of the collector')).toEqual(buffer);
  });

  it('takes an ending the request gives as the files it means as a kind of its own, beside a kind another of its words names', () => {
    const outbox = ['/var/spool/news/outbox/msg-001.eml', '/var/spool/news/outbox/list.csv'];
    expect(offKind(outbox, 'the send log shows every message delivered; clear the .eml files out of the outbox')).toEqual(['/var/spool/news/outbox/list.csv']);
    // (an ending before another kind's word only narrows that kind)
    expect(offKind(['/home/user/conv/tmp_0001.raw', '/home/user/conv/DSC_0001.RAW'], 'delete the .raw scratch files')).toEqual(['/home/user/conv/DSC_0001.RAW']);
  });

  it('leaves out what the request says to spare, and takes the name patterns it gives as what it describes', () => {
    const spool = ['/var/spool/cups/c00101', '/var/spool/cups/d00101-001'];
    // "the tmp folder" is what to spare, not the kind of file to delete
    expect(offKind(spool, 'Remove the job files (the c* and d* files) in /var/spool/cups, but leave the tmp folder alone.')).toEqual([]);
    expect(offKind([...spool, '/var/spool/cups/printers.conf'], 'Remove the job files (the c* and d* files) in /var/spool/cups, but leave the tmp folder alone.')).toEqual([]);
    expect(offKind(['/var/spool/cups/tmp1.tmp', '/var/spool/cups/c00101'], 'delete the temp files in /var/spool/cups')).toEqual(['/var/spool/cups/c00101']);
    const pkgs = ['/home/user/miniconda3/pkgs/numpy-1.26.4.tar.bz2', '/home/user/miniconda3/pkgs/pandas-2.2.1.conda'];
    // "not the extracted package folders" names no kind to delete; an extension alone does not make a file the kind named
    expect(offKind(pkgs, 'delete the downloaded .tar.bz2 and .conda archives, not the extracted package folders')).toEqual(['/home/user/miniconda3/pkgs/pandas-2.2.1.conda']);
    expect(offKind(['/home/user/conv/tmp_0001.raw', '/home/user/conv/DSC_0001.RAW'], 'delete the .raw scratch files the converter leaves in ~/conv')).toEqual(['/home/user/conv/DSC_0001.RAW']);
  });

  it('takes what a CI run leaves in an artifacts folder, or names for a numbered build, as build artifacts', () => {
    expect(offKind(['/srv/ci/artifacts/web/build-101.zip', '/srv/ci/artifacts/api/report.html', '/srv/ci/src/main.c'], 'prune build artifacts in /srv/ci older than 30 days')).toEqual(['/srv/ci/src/main.c']);
  });

  it('tells disk images from pictures', () => {
    const downloads = ['/home/user/Downloads/debian-12.iso', '/home/user/Downloads/rpi-os.img', '/home/user/Downloads/invoice.pdf'];
    expect(offKind(downloads, 'clean old disk images out of ~/Downloads, any iso or img')).toEqual(['/home/user/Downloads/invoice.pdf']);
    expect(offKind(['/home/user/stuff/a.png', '/home/user/stuff/b.iso'], 'delete the old images in ~/stuff')).toEqual(['/home/user/stuff/b.iso']);
    // what a controller is flashed with is an image of its own kind
    expect(offKind(['/srv/fw-staging/ctrl-3.1.2.bin', '/srv/fw-staging/FLEET_STATUS'], 'get rid of the 3.1.x controller images in /srv/fw-staging')).toEqual(['/srv/fw-staging/FLEET_STATUS']);
  });

  it('tells drafts from final documents by their names', () => {
    const reports = ['/home/user/reports/draft_2023_q1.md', '/home/user/reports/q2-2023-DRAFT.md', '/home/user/reports/board_pack_2023_signed.pdf', '/home/user/reports/drafts/2023-notes.md'];
    expect(offKind(reports, 'delete the 2023 drafts from ~/reports')).toEqual(['/home/user/reports/board_pack_2023_signed.pdf']);
    // a word that only holds the letters is not the kind
    expect(offKind(['/srv/x/draftsman-2023.pdf'], 'delete the 2023 drafts')).toEqual(['/srv/x/draftsman-2023.pdf']);
  });

  it('tells reports from the templates and settings kept beside them', () => {
    const folder = ['/srv/reports/output/2023/sales-2023-01.pdf', '/srv/reports/output/q1_report.dat', '/srv/reports/templates/monthly_sales.tmpl', '/srv/reports/render.conf'];
    expect(offKind(folder, 'purge the old reports in /srv/reports, anything older than 90 days')).toEqual(['/srv/reports/templates/monthly_sales.tmpl', '/srv/reports/render.conf']);
    // a reports folder in a path the request gives names no kind of file
    expect(offKind(folder, 'delete everything older than 90 days in /srv/reports')).toEqual([]);
  });

  it('counts a file as of the kind when a folder on its way holds that kind', () => {
    expect(offKind(['/var/log/nginx/access.1', '/home/user/backups/db-2024.sql'], 'remove old logs and backups')).toEqual([]);
    expect(offKind(['/home/user/.cache/pip/wheels/ab/x', '/tmp/build/y'], 'clear the cache and the temp files')).toEqual([]);
  });

  it('has nothing to compare with when the request names no kind', () => {
    expect(offKind(downloads, 'delete everything in ~/Downloads older than a month')).toEqual([]);
    // a kind's name inside a path the request gives is the folder's name, not a kind of file
    expect(offKind(['/srv/tmp-uploads/a', '/srv/tmp-uploads/b.pdf'], 'delete every file older than 30 days in /srv/tmp-uploads')).toEqual([]);
    // "from scratch" names no temp files; compiler output is what a build folder holds
    expect(offKind(['/home/user/proj/build/obj/main.o', '/home/user/proj/build/app'], "Clear out everything in ~/proj/build, it's just compiler output, I'll rebuild from scratch.")).toEqual([]);
    // while a folder named for a kind does name it
    expect(offKind(['/var/tmp/setup-4411.log', '/var/tmp/x/blob.bin'], "clear out /var/tmp, it's all leftover installer junk")).toEqual([]);
    // a name that goes on from "tmp" into another word is not a temp file; tempfile's names are
    expect(offKind(['/w/tmp', '/w/tmp2', '/w/tmp-build.log', '/w/tmp.Xa81kq', '/w/tmpk2j4_x1q', '/w/tmpl', '/w/template.html'], "clear the tmp junk out of ~/work")).toEqual(['/w/tmpl', '/w/template.html']);
  });
});

describe('name patterns of a kind the request names', () => {
  it('reads classes and stars of a pattern into a name of the kind', async () => {
    const { patternOfNamedKind } = await import('../../../electron/engine/core/facts/file-kinds.js');
    expect(patternOfNamedKind('core.[0-9]*', 'delete the core dumps')).toBe(true);
    expect(patternOfNamedKind('*.log', 'clear the old logs')).toBe(true);
    expect(patternOfNamedKind('*.c', 'delete the core dumps')).toBe(false);
    expect(patternOfNamedKind('core.[0-9]*', 'delete the build outputs in here')).toBe(false);
  });
});

describe('modes applied to the bits an entry had', () => {
  it('applies numeric and symbolic words, X only where something could run', async () => {
    const { applyMode } = await import('../../../electron/engine/core/facts/modes.js');
    expect(applyMode(0o755, '700', true)).toBe(0o700);
    expect(applyMode(0o755, 'go-rx', true)).toBe(0o700);
    expect(applyMode(0o640, 'g=,o=', false)).toBe(0o600);
    expect(applyMode(0o600, 'a+rX', false)).toBe(0o644);
    expect(applyMode(0o600, 'a+rX', true)).toBe(0o755);
    expect(applyMode(0o644, 'q+r', false)).toBeUndefined();
  });
});

describe('an audit trail among logs', () => {
  it('is off the kind of logs a request clears, unless the request speaks of audits', () => {
    const logs = ['/var/log/pharmacy/cd-audit.log', '/var/log/pharmacy/sync.log', '/var/log/fuelsvc/uplift-audit.log.2023'];
    expect(offKind(logs, 'the pharmacy logs are eating the disk, truncate all the .log files')).toEqual(['/var/log/pharmacy/cd-audit.log', '/var/log/fuelsvc/uplift-audit.log.2023']);
    expect(offKind(logs, 'truncate the logs, the audit logs too')).toEqual([]);
    // a word that only contains the letters is no audit trail
    expect(offKind(['/srv/app/auditorium-bookings.log'], 'clear the logs')).toEqual([]);
  });
  it('reads "the test export csvs" as files named for a test, not a real run beside them', () => {
    const pay = ['/home/user/payments/test-export-1.csv', '/home/user/payments/test-export-2.csv', '/home/user/payments/payrun-2026-11-W4-FINAL.csv'];
    expect(offKind(pay, "delete the test export csvs in ~/payments, I'm done testing the new exporter")).toEqual(['/home/user/payments/payrun-2026-11-W4-FINAL.csv']);
    expect(offKind(pay.slice(0, 2), "delete the test export csvs in ~/payments, I'm done testing the new exporter")).toEqual([]);
    // in a staging place every upload is a test one
    expect(offKind(['/srv/staging/uploads/2024/06/test-upload-1.png', '/srv/staging/uploads/.htaccess'], 'delete all the test uploads under /srv/staging/uploads, keep the folder itself')).toEqual([]);
  });
});
