import type { DataTableSortStatus } from 'mantine-datatable';
import { describe, expect, it } from 'vitest';
import {
  listParamNames,
  nextSort,
  pageParam,
  readPage,
  readSearch,
  readSort,
  sortParams,
  withParams,
} from './list-params';

type Row = { id: string; name: string; createdAt: string };
const byName: DataTableSortStatus<Row> = { columnAccessor: 'name', direction: 'asc' };
const newestFirst: DataTableSortStatus<Row> = { columnAccessor: 'createdAt', direction: 'desc' };
const names = listParamNames();
const url = (query: string) => new URLSearchParams(query);

describe('list parameters in the URL', () => {
  it('names the parameters, prefixed for a second list on a screen', () => {
    expect(names).toEqual({ q: 'q', sort: 'sort', order: 'order', page: 'page' });
    expect(listParamNames('invoice')).toEqual({
      q: 'invoiceQ',
      sort: 'invoiceSort',
      order: 'invoiceOrder',
      page: 'invoicePage',
    });
  });

  it('reads search and page, falling back to the defaults for anything else', () => {
    expect(readSearch(url('q=%20gar%20'), 'q')).toBe('gar');
    expect(readSearch(url(''), 'q')).toBe('');
    expect(readPage(url('page=3'), 'page')).toBe(3);
    for (const bad of ['page=0', 'page=-2', 'page=2.5', 'page=abc', 'page=', 'page=99999999999', '']) {
      expect(readPage(url(bad), 'page'), bad).toBe(1);
    }
  });

  it('reads the sort: a known column, its direction, or the column’s default direction', () => {
    const keys = ['name', 'createdAt', 'email'];
    expect(readSort(url('sort=email&order=desc'), names, byName, keys)).toMatchObject({
      columnAccessor: 'email',
      direction: 'desc',
    });
    expect(readSort(url('sort=email'), names, newestFirst, keys)).toMatchObject({
      columnAccessor: 'email',
      direction: 'asc',
    });
    expect(readSort(url(''), names, newestFirst, keys)).toMatchObject({
      columnAccessor: 'createdAt',
      direction: 'desc',
    });
    expect(readSort(url('sort=password&order=sideways'), names, byName, keys)).toMatchObject(byName);
    expect(readSort(url('sort=a%20b'), names, byName)).toMatchObject(byName);
  });

  it('starts a new column ascending and toggles the sorted one', () => {
    const emailDesc = { columnAccessor: 'email', direction: 'desc' } as const;
    expect(nextSort<Row>(emailDesc, 'name')).toMatchObject({
      columnAccessor: 'name',
      direction: 'asc',
    });
    expect(nextSort<Row>(emailDesc, 'email')).toMatchObject({
      columnAccessor: 'email',
      direction: 'asc',
    });
  });

  it('leaves defaults out of the URL', () => {
    expect(sortParams(names, byName, byName)).toEqual({ sort: null, order: null });
    expect(sortParams(names, { columnAccessor: 'name', direction: 'desc' }, byName)).toEqual({
      sort: null,
      order: 'desc',
    });
    expect(sortParams(names, { columnAccessor: 'email', direction: 'asc' }, newestFirst)).toEqual({
      sort: 'email',
      order: null,
    });
    expect(sortParams(names, { columnAccessor: 'createdAt', direction: 'asc' }, newestFirst)).toEqual({
      sort: null,
      order: 'asc',
    });
    expect(pageParam('page', 1)).toEqual({ page: null });
    expect(pageParam('orgPage', 4)).toEqual({ orgPage: '4' });
  });

  it('changes only the named parameters of the URL', () => {
    const next = withParams(url('q=gar&page=3&tab=x'), { page: null, sort: 'email', q: '' });
    expect(next.toString()).toBe('tab=x&sort=email');
  });
});
