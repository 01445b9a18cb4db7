import { describe, expect, it } from 'vitest';
import { hasProperties, parseAuthors, parseDocumentDate } from '../../../shared/domain/document-properties.ts';

describe('document properties', () => {
  it('splits author lists on semicolons, "and" and commas between full names', () => {
    expect(parseAuthors('Jane Smith; Human Resources Department')).toEqual(['Jane Smith', 'Human Resources Department']);
    expect(parseAuthors('Jane Smith and John Doe')).toEqual(['Jane Smith', 'John Doe']);
    expect(parseAuthors('Jane Smith, John Doe & Ann Lee')).toEqual(['Jane Smith', 'John Doe', 'Ann Lee']);
    expect(parseAuthors(['Smith, Jane', 'Doe, John'])).toEqual(['Smith, Jane', 'Doe, John']);
  });

  it('keeps an inverted name whole and drops placeholders, blanks and repeats', () => {
    expect(parseAuthors('Smith, Jane')).toEqual(['Smith, Jane']);
    expect(parseAuthors('Microsoft Office User')).toEqual([]);
    expect(parseAuthors('  ')).toEqual([]);
    expect(parseAuthors('Administrator; Jane Smith; Jane Smith')).toEqual(['Jane Smith']);
    expect(parseAuthors(null)).toEqual([]);
  });

  it('reads PDF dates and W3C dates as precise as they are', () => {
    expect(parseDocumentDate("D:20240315093000+01'00'")).toBe('2024-03-15');
    expect(parseDocumentDate('D:2024')).toBe('2024');
    expect(parseDocumentDate('20240315')).toBe('2024-03-15');
    expect(parseDocumentDate('2023-01-15T09:30:00Z')).toBe('2023-01-15');
    expect(parseDocumentDate('2023-01')).toBe('2023-01');
    expect(parseDocumentDate('2023')).toBe('2023');
  });

  it('falls back to what is valid in an impossible date, and refuses text that is no date', () => {
    expect(parseDocumentDate('D:20240231')).toBe('2024-02');
    expect(parseDocumentDate('D:20241300')).toBe('2024');
    expect(parseDocumentDate('yesterday')).toBeNull();
    expect(parseDocumentDate('12/03/2024')).toBeNull();
    expect(parseDocumentDate(undefined)).toBeNull();
  });

  it('stores properties only when there is an author or a date', () => {
    expect(hasProperties({ authors: [], published: null })).toBe(false);
    expect(hasProperties({ authors: [], published: '2024' })).toBe(true);
    expect(hasProperties(undefined)).toBe(false);
  });
});
