/**
 * File formats a rehearsal checks: which format a file is in, and whether a text reads in it.
 */
import { describe, expect, it } from 'vitest';
import { formatError, formatOf } from '../../../electron/engine/core/facts/file-formats.js';

describe('the format of a file', () => {
  it('comes from its place, its name, or a script\'s first line', () => {
    expect(formatOf('/etc/passwd', '')).toBe('passwd');
    expect(formatOf('/etc/cron.d/backup', '')).toBe('system-crontab');
    expect(formatOf('/var/spool/cron/crontabs/user', '')).toBe('crontab');
    expect(formatOf('/srv/app/Makefile', '')).toBe('makefile');
    expect(formatOf('/srv/app/rules.mk', '')).toBe('makefile');
    expect(formatOf('/home/user/.profile', '')).toBe('shell');
    expect(formatOf('/srv/app/pyproject.toml', '')).toBe('toml');
    expect(formatOf('/usr/local/bin/deploy', '#!/usr/bin/env bash\necho hi\n')).toBe('shell');
    expect(formatOf('/usr/local/bin/deploy', '#!/usr/bin/python3\nprint(1)\n')).toBeUndefined();
    expect(formatOf('/srv/app/notes.txt', 'text')).toBeUndefined();
  });
});

describe('reading a makefile as GNU make does', () => {
  const good = [
    'CC ?= cc',
    'CFLAGS := -O2 \\',
    '  -Wall',
    'export PATH := $(PATH):/opt/bin',
    '.PHONY: all clean',
    '',
    'all: app',
    '',
    'app: CFLAGS += -g',
    'app: main.o util.o',
    '\t$(CC) $(CFLAGS) -o $@ $^',
    '',
    '%.o: %.c',
    'ifeq ($(V),1)',
    '\t$(CC) -c $< -o $@',
    'else',
    '\t@$(CC) -c $< -o $@',
    'endif',
    '',
    'define banner',
    '  echo building',
    'endef',
    '$(foreach t,a b,$(eval $(t): ; @echo $(t)))',
    '# a comment',
    'clean:',
    '\trm -f app *.o',
    '',
  ].join('\n');

  it('reads one with assignments, continued lines, conditionals, defines and recipes', () => {
    expect(formatError('makefile', good)).toBeUndefined();
  });

  it('names the line of a recipe indented with spaces', () => {
    expect(formatError('makefile', good.replace('\t$(CC) $(CFLAGS)', '    $(CC) $(CFLAGS)'))).toBe('line 11: missing separator (a recipe line indented with spaces, not a tab)');
  });

  it('refuses a recipe before the first rule, and reads a makefile with its own recipe prefix as it is', () => {
    expect(formatError('makefile', '\techo hi\nall:\n')).toBe('line 1: a recipe line before the first rule');
    expect(formatError('makefile', '.RECIPEPREFIX = >\nall:\n> echo hi\n')).toBeUndefined();
  });
});

describe('the other formats', () => {
  it('reads a shell script, and names what a damaged one lacks', () => {
    expect(formatError('shell', '#!/bin/sh\nif [ -f x ]; then\n  echo yes\nfi\n')).toBeUndefined();
    expect(formatError('shell', '#!/bin/sh\nif [ -f x ]; then\n  echo yes\n')).toMatch(/shell syntax error/);
  });

  it('reads crontabs, user and system, and refuses a schedule that lost a field or a system line without an account', () => {
    expect(formatError('crontab', 'MAILTO=""\n*/5 * * * * /usr/local/bin/sync\n@reboot /usr/local/bin/start\n0 3 * jan-mar mon,fri backup --all\n')).toBeUndefined();
    expect(formatError('crontab', '*/5 * * * /usr/local/bin/sync\n')).toBe('line 1: not a schedule');
    expect(formatError('system-crontab', '17 * * * * root cd / && run-parts /etc/cron.hourly\n')).toBeUndefined();
    expect(formatError('system-crontab', '17 * * * * run-parts\n')).toBe('line 1: no account or no command after the schedule');
  });

  it('reads the account files field by field', () => {
    expect(formatError('passwd', 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000::/home/user:/bin/sh\n')).toBeUndefined();
    expect(formatError('passwd', 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:/home/user:/bin/sh\n')).toBe('line 2: 6 fields, not 7');
    expect(formatError('group', 'wheel:x:10:root,user\n')).toBeUndefined();
    expect(formatError('group', 'wheel:x:ten:root\n')).toBe('line 1: field 3 is not a number');
    expect(formatError('shadow', 'root:*:19000:0:99999:7:::\n')).toBeUndefined();
  });

  it('reads JSON, JSON lines, YAML and TOML, and says why a damaged one does not', () => {
    expect(formatError('json', '{"a": 1}')).toBeUndefined();
    expect(formatError('json', '{"a": 1}\n{"b": 2}')).toBeTypeOf('string');
    expect(formatError('json-lines', '{"a": 1}\n{"b": 2}\n')).toBeUndefined();
    expect(formatError('json-lines', '[\n{"a": 1}\n]\n{"b": 2}\n')).toBe('line 1 is not a JSON text');
    expect(formatError('yaml', 'a: 1\nb: [2, 3]\n')).toBeUndefined();
    expect(formatError('yaml', 'a: 1\n b: 2\n')).toBeTypeOf('string');
    expect(formatError('toml', '[tool.app]\nname = "x"\n')).toBeUndefined();
    expect(formatError('toml', '[tool.app]\nname = x"\n')).toBeTypeOf('string');
  });
});
