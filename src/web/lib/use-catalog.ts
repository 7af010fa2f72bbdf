import { useEffect, useState } from 'react';
import type { CatalogView } from '../../domain/catalog-view.js';
import { useAppData } from '../app-data.js';

/** The catalogue from the page data; refreshed from /api/catalog so a campaign that starts or ends shows. */
export function useCatalog(): CatalogView {
  const { catalog: initial } = useAppData();
  const [catalog, setCatalog] = useState(initial);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/catalog', { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<CatalogView>) : null))
      .then((fresh) => {
        if (fresh) setCatalog(fresh);
      })
      .catch(() => {
        // Keep the prices the page was rendered with.
      });
    return () => controller.abort();
  }, []);
  return catalog;
}
